import { z } from 'zod';

/**
 * Contract §9. IMAGE_CONVERSIONS: image conversions (optimize=true) one media process runs at
 * once; IMAGE_CONVERSION_WAIT_MS: how long an upload may wait for one before it is 503.
 * CUSTOMER_STORAGE_QUOTA_MB: what one customer may keep stored in all, in MiB.
 */
export const uploadsEnv = {
  IMAGE_CONVERSIONS: z.coerce.number().int().positive().default(2),
  IMAGE_CONVERSION_WAIT_MS: z.coerce.number().int().nonnegative().default(10_000),
  CUSTOMER_STORAGE_QUOTA_MB: z.coerce.number().int().positive().default(1024),
};
