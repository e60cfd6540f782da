import { z } from 'zod';

/**
 * PASSWORD_HASH_MAX_WAITING: how many argon2id hashes or verifications may wait for a core beyond
 * those running; one more is answered 503 SERVICE_UNAVAILABLE with Retry-After at once. Unset: the
 * default of `defaultMaxWaiting` (cores x target worst wait / cost of one hash).
 */
export const passwordsEnv = {
  PASSWORD_HASH_MAX_WAITING: z.coerce.number().int().min(0).max(10_000).optional(),
};

export interface PasswordsConfig {
  PASSWORD_HASH_MAX_WAITING?: number | undefined;
}
