import { finished, PassThrough } from 'node:stream';
import { FILES_FIELD, MAX_FILES_PER_BATCH } from '@school/contracts';
import { AppError, validationFailed } from '@school/http';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { IncomingFile } from './uploads.service.js';

/** @fastify/multipart's errors for more files than `limits.files` and a file over `limits.fileSize`. */
const FILES_LIMIT = 'FST_FILES_LIMIT';
const FILE_TOO_LARGE = 'FST_REQ_FILE_TOO_LARGE';

/**
 * The request's first part, which must be a file in `field`: 400 UPLOAD_FILE_REQUIRED otherwise
 * (no part, another field, or not multipart at all). The stream is capped at `maxBytes`.
 */
export async function multipartFile(request: FastifyRequest, field: string, maxBytes: number): Promise<IncomingFile> {
  if (!request.isMultipart()) throw new AppError('UPLOAD_FILE_REQUIRED');
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21 } }).catch(() => undefined);
  if (!part || part.fieldname !== field) {
    part?.file.resume();
    throw new AppError('UPLOAD_FILE_REQUIRED');
  }
  return incomingFile(part);
}

/**
 * A file part as a stream that fails with 413 UPLOAD_TOO_LARGE the moment it passes the size limit
 * (left alone, busboy would only truncate it and read the rest of the request first), and with 400
 * VALIDATION_FAILED when the multipart body is malformed or ends early.
 */
function incomingFile(part: MultipartFile): IncomingFile {
  const bytes = new PassThrough();
  part.file.once('limit', () => part.file.destroy(new AppError('UPLOAD_TOO_LARGE')));
  // finished() also reports an error the part met before this function ran (a body already cut short).
  finished(part.file, (error) => {
    if (error && !bytes.destroyed) bytes.destroy(error instanceof AppError ? error : malformedBody());
  });
  // A file refused before anyone reads it (by its name, say) still fails when the request ends:
  // readers get the error through their own listeners; unread, it must not crash the process.
  bytes.on('error', () => {});
  // A consumer giving up early must let the parser go too (busboy waits for the part to be read).
  bytes.once('close', () => {
    if (!part.file.readableEnded) part.file.destroy();
  });
  part.file.pipe(bytes);
  return { filename: part.filename, mimetype: part.mimetype, stream: bytes };
}

function malformedBody(): AppError {
  return validationFailed([{ field: 'body', message: 'Malformed multipart body' }]);
}

function filesCountInvalid() {
  return validationFailed([{ field: FILES_FIELD, message: `must hold 1 to ${MAX_FILES_PER_BATCH} files` }]);
}

/**
 * The files of `field`, one at a time as they arrive (each must be consumed before the next is
 * read): 400 VALIDATION_FAILED for none, more than MAX_FILES_PER_BATCH, or a file in another field.
 */
export async function* multipartFiles(request: FastifyRequest, field: string, maxBytes: number): AsyncGenerator<IncomingFile> {
  if (!request.isMultipart()) throw filesCountInvalid();
  let count = 0;
  try {
    for await (const part of request.files({ limits: { fileSize: maxBytes, files: MAX_FILES_PER_BATCH, fields: 20 } })) {
      if (part.fieldname !== field) {
        part.file.resume();
        throw validationFailed([{ field: part.fieldname, message: `files go in the ${field} field` }]);
      }
      count += 1;
      yield incomingFile(part);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === FILES_LIMIT) throw filesCountInvalid();
    if (code === FILE_TOO_LARGE) throw new AppError('UPLOAD_TOO_LARGE');
    // Everything else the parser raises is about the bytes the client sent.
    throw malformedBody();
  }
  if (count === 0) throw filesCountInvalid();
}
