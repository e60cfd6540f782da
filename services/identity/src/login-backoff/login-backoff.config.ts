import { z } from 'zod';

/**
 * LOGIN_BACKOFF_BASE_SECONDS (contract §9: 60): the back-off after the fifth failed login in a row
 * for one email; each further failure doubles it, up to 15 minutes.
 */
export const loginBackoffEnv = {
  LOGIN_BACKOFF_BASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(15 * 60)
    .default(60),
};

export type LoginBackoffConfig = z.infer<z.ZodObject<typeof loginBackoffEnv>>;
