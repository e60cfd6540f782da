export interface AuthModuleOptions {
  jwksUrl: string;
  issuer: string;
  audience: string;
  redisUrl: string;
  /** Visible to every module without importing it (default true). */
  global?: boolean;
  /** Minimum time between JWKS refetches for an unknown kid (jose default 30 s; tests shorten it). */
  jwksCooldownMs?: number;
  /** How long a fetched JWKS is used before it is fetched again (JWKS_CACHE_SECONDS). */
  jwksCacheMaxAgeMs?: number;
  /** Redis key and channel of revoked sessions (tests isolate themselves with a random one). */
  revocationKey?: string;
}

/** The ioredis client the module opened for revocations; closed when the application shuts down. */
export const AUTH_REDIS = Symbol('AUTH_REDIS');
