import { z } from 'zod';

/**
 * The list caches (academic sessions: spec §4.6 rule 1; geography). They live in Redis so that every
 * replica sees one cache and one invalidation; `CACHE_REDIS_URL` defaults to `REDIS_URL`.
 */
export const listCacheEnv = {
  CACHE_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a URL (redis: or rediss:)')
    .optional(),
  /** Prefix of every cache key: empty in production, random in tests sharing one Redis. */
  CACHE_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{0,64}$/, 'letters, digits, _ : . - only')
    .default(''),
};

export interface ListCacheConfig {
  REDIS_URL: string;
  CACHE_REDIS_URL?: string | undefined;
  CACHE_KEY_PREFIX: string;
}
