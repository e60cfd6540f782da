import { AppError } from '@school/http';
import type { FastifyRequest } from 'fastify';
import type { IncomingFile } from './uploads.service.js';

/** The multipart field spec §4.4 names for a single upload. */
export const FILE_FIELD = 'file';

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
