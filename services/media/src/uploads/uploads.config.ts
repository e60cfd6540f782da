import { z } from 'zod';
import { DEFAULT_CONVERSION_MEGAPIXELS } from './image-budget.js';

/**
 * Contract §9. IMAGE_CONVERSIONS: image conversions (optimize=true) one media process runs at
 * once; IMAGE_CONVERSION_WAIT_MS: how long an upload may wait for one before it is 503;
 * IMAGE_CONVERSION_MEGAPIXELS: the pixels those conversions may decode together (see ConversionGate).
 * CUSTOMER_STORAGE_QUOTA_MB: what one customer may keep stored in all, in MiB.
 */
export const uploadsEnv = {
  IMAGE_CONVERSIONS: z.coerce.number().int().positive().default(2),
  IMAGE_CONVERSION_WAIT_MS: z.coerce.number().int().nonnegative().default(10_000),
  IMAGE_CONVERSION_MEGAPIXELS: z.coerce.number().positive().default(DEFAULT_CONVERSION_MEGAPIXELS),
  CUSTOMER_STORAGE_QUOTA_MB: z.coerce.number().int().positive().default(1024),
};

export type UploadsConfig = z.infer<z.ZodObject<typeof uploadsEnv>>;
