import { AppError, validationFailed } from '@school/http';
import type { FastifyRequest } from 'fastify';
import type { IncomingFile } from './uploads.service.js';

/** The multipart fields spec §4.4 names: one upload, and a batch of 1 to MAX_FILES_PER_BATCH. */
export const FILE_FIELD = 'file';
export const FILES_FIELD = 'files';
export const MAX_FILES_PER_BATCH = 10;

/** @fastify/multipart's error for more files than `limits.files`. */
const FILES_LIMIT = 'FST_FILES_LIMIT';

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
  return { filename: part.filename, mimetype: part.mimetype, stream: part.file };
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
      yield { filename: part.filename, mimetype: part.mimetype, stream: part.file };
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === FILES_LIMIT) throw filesCountInvalid();
    throw error;
  }
  if (count === 0) throw filesCountInvalid();
}
