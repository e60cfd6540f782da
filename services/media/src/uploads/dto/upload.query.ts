import { AppError, queryBoolean, validate } from '@school/http';
import { z } from 'zod';
import { CUSTOMER_UPLOAD_TYPES, UPLOAD_TYPES, type UploadType } from '../upload-types.js';

export interface UploadQuery {
  uploadType: UploadType;
  optimize: boolean;
}

const TYPES_OF_SURFACE = { admin: UPLOAD_TYPES, mobile: CUSTOMER_UPLOAD_TYPES } as const;

/** The upload query of a surface (spec §4.4, §4.5): `uploadType` from the surface's list (default image), `optimize` (default true). */
export function uploadQuerySchema(surface: 'admin' | 'mobile') {
  return z.object({
    uploadType: z.enum(TYPES_OF_SURFACE[surface]).default('image'),
    optimize: queryBoolean.default(true),
  });
}

/**
 * `uploadType` outside the surface's list is 400 UPLOAD_TYPE_INVALID; a bad `optimize` 400
 * VALIDATION_FAILED (contract §8).
 */
export function parseUploadQuery(query: Record<string, unknown> | undefined, surface: 'admin' | 'mobile'): UploadQuery {
  const { uploadType, optimize } = uploadQuerySchema(surface).shape;
  const type = uploadType.safeParse(query?.['uploadType']);
  if (!type.success) throw new AppError('UPLOAD_TYPE_INVALID');
  const options = validate(z.object({ optimize }), { optimize: query?.['optimize'] });
  return { uploadType: type.data, optimize: options.optimize };
}
