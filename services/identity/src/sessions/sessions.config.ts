import { z } from 'zod';

/**
 * REFRESH_REUSE_GRACE_SECONDS (default 10): how long after a refresh token was rotated a repeat of
 * it counts as a parallel or retried refresh (401, session kept) rather than a replay (401, the
 * whole session revoked). 0 treats every repeat as a replay.
 */
export const sessionsEnv = {
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
};

export type SessionsConfig = z.infer<z.ZodObject<typeof sessionsEnv>>;
