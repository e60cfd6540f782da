import { z } from 'zod';

/**
 * RETENTION_DAYS (default 30): how long identity keeps what has ended (sessions after their
 * revocation or expiry, verification credentials after their redemption, retirement or expiry)
 * before deleting it.
 */
export const retentionEnv = {
  RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
};

export type RetentionConfig = z.infer<z.ZodObject<typeof retentionEnv>>;
