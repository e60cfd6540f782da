import { type ConfigRule, env } from '@school/config';
import { z } from 'zod';

/**
 * OWASP's argon2id configurations, each as strong as the others: the least memory (KiB) for a time
 * cost of 1, 2, 3, 4 and 5 or more passes. The default is the second (OWASP_HASH_COST).
 */
export const OWASP_MIN_MEMORY_KIB = [47_104, 19_456, 12_288, 9_216, 7_168] as const;

/** The least memory OWASP asks of argon2id at `timeCost` passes. */
export function owaspMinMemoryKib(timeCost: number): number {
  return OWASP_MIN_MEMORY_KIB[Math.min(timeCost, OWASP_MIN_MEMORY_KIB.length) - 1]!;
}

/** argon2id's memory (KiB) and passes for new hashes; PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_TIME_COST. */
export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * OWASP's second configuration (m = 19456 KiB, t = 2, p = 1), identity's default. Verification reads
 * the parameters from the stored hash, so raising them later keeps old hashes valid.
 */
export const OWASP_HASH_COST: HashCost = { memoryCost: owaspMinMemoryKib(2), timeCost: 2 };

/** argon2's least memory cost that the binding accepts for one lane. */
const ARGON2_MIN_MEMORY_KIB = 1_024;

/**
 * PASSWORD_HASH_MAX_WAITING: how many argon2id hashes or verifications may wait for a core beyond
 * those running; one more is answered 503 SERVICE_UNAVAILABLE with Retry-After at once. Unset: the
 * default of `defaultMaxWaiting` (cores x target worst wait / cost of one hash).
 * PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_TIME_COST: argon2id's memory and passes for new hashes
 * (verification reads them from the stored hash, so raising them later keeps old hashes valid). A
 * production identity refuses to start below OWASP's (passwordHashCostAtLeastOwaspInProduction);
 * outside production they may go down to argon2's least, which test systems use.
 * PASSWORD_STRENGTH_PRELOAD: whether identity builds the strength estimator (contract §9) while it
 * starts, before it listens (the default), or on the first new password it checks (password-strength.ts).
 */
export const passwordsEnv = {
  PASSWORD_HASH_MAX_WAITING: z.coerce.number().int().min(0).max(10_000).optional(),
  PASSWORD_HASH_MEMORY_KIB: z.coerce
    .number()
    .int()
    .min(ARGON2_MIN_MEMORY_KIB)
    .max(4 * 1024 * 1024)
    .default(OWASP_HASH_COST.memoryCost),
  PASSWORD_HASH_TIME_COST: z.coerce.number().int().min(1).max(100).default(OWASP_HASH_COST.timeCost),
  PASSWORD_STRENGTH_PRELOAD: env.flag(true),
};

export interface PasswordsConfig {
  PASSWORD_HASH_MAX_WAITING?: number | undefined;
  PASSWORD_HASH_MEMORY_KIB: number;
  PASSWORD_HASH_TIME_COST: number;
  PASSWORD_STRENGTH_PRELOAD: boolean;
}

/** The cost new hashes take from the configuration. */
export const hashCostOf = (config: PasswordsConfig): HashCost => ({ memoryCost: config.PASSWORD_HASH_MEMORY_KIB, timeCost: config.PASSWORD_HASH_TIME_COST });

/** A production identity never stores hashes weaker than OWASP's recommendation for argon2id. */
export const passwordHashCostAtLeastOwaspInProduction: ConfigRule<PasswordsConfig & { NODE_ENV: string }> = (config) =>
  config.NODE_ENV === 'production' && config.PASSWORD_HASH_MEMORY_KIB < owaspMinMemoryKib(config.PASSWORD_HASH_TIME_COST)
    ? {
        variable: 'PASSWORD_HASH_MEMORY_KIB',
        problem: `must be at least ${owaspMinMemoryKib(config.PASSWORD_HASH_TIME_COST)} with PASSWORD_HASH_TIME_COST=${config.PASSWORD_HASH_TIME_COST} in production (OWASP's argon2id minimum)`,
      }
    : undefined;
