import { AppError, queryBoolean, validate } from '@school/http';
import { z } from 'zod';
import { CUSTOMER_UPLOAD_TYPES, UPLOAD_TYPES, type UploadType } from '../upload-types.js';

export interface UploadQuery {
  uploadType: UploadType;
  optimize: boolean;
}

const optimizeQuery = z.object({ optimize: queryBoolean.default(true) });

/**
 * `uploadType` (default image) from the surface's list, else 400 UPLOAD_TYPE_INVALID; `optimize`
 * (default true) as a query boolean, else 400 VALIDATION_FAILED.
 */
export function parseUploadQuery(query: Record<string, unknown> | undefined, surface: 'admin' | 'mobile'): UploadQuery {
  const allowed: readonly string[] = surface === 'admin' ? UPLOAD_TYPES : CUSTOMER_UPLOAD_TYPES;
  const requested = query?.['uploadType'] ?? 'image';
  if (typeof requested !== 'string' || !allowed.includes(requested)) throw new AppError('UPLOAD_TYPE_INVALID');
  const { optimize } = validate(optimizeQuery, { optimize: query?.['optimize'] });
  return { uploadType: requested as UploadType, optimize };
}
