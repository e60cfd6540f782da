import { z } from 'zod';

/**
 * REFRESH_REUSE_GRACE_SECONDS (default 0): how long after a refresh token was rotated a repeat of
 * it counts as a parallel or retried refresh (401, session kept) rather than a replay (401, the
 * whole session revoked). Contract §4 revokes on any repeat, hence 0; a deployment whose clients
 * retry refreshes over flaky networks may trade a few seconds of that for fewer forced logins.
 */
export const sessionsEnv = {
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
};

export type SessionsConfig = z.infer<z.ZodObject<typeof sessionsEnv>>;
