import { AppError, validate } from '@school/http';
import type { UploadQuerySchema, UploadType } from '@school/contracts';
import { z } from 'zod';

export interface UploadQuery {
  uploadType: UploadType;
  optimize: boolean;
}

/**
 * The upload query of a route's manifest entry: `uploadType` outside the surface's list is 400
 * UPLOAD_TYPE_INVALID; a bad `optimize` 400 VALIDATION_FAILED (contract §8).
 */
export function parseUploadQuery(query: Record<string, unknown> | undefined, schema: UploadQuerySchema): UploadQuery {
  const { uploadType, optimize } = schema.shape;
  const type = uploadType.safeParse(query?.['uploadType']);
  if (!type.success) throw new AppError('UPLOAD_TYPE_INVALID');
  const options = validate(z.object({ optimize }), { optimize: query?.['optimize'] });
  return { uploadType: type.data, optimize: options.optimize };
}
