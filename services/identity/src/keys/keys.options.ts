import type { KeyRingTimings } from './key-ring.js';

export interface KeysModuleOptions {
  /** JWT_PRIVATE_KEY (PKCS#8 PEM); undefined: use the keys kept in the identity schema. */
  privateKeyPem?: string | undefined;
  /** JWT_PUBLIC_KEYS (SPKI PEM): published beside JWT_PRIVATE_KEY's key. */
  publicKeyPems?: readonly string[] | undefined;
  /** JWT_ISSUER and JWT_AUDIENCE, written into every access token. */
  issuer: string;
  audience: string;
  /** Stored keys: when a new one signs and how long a replaced one verifies. */
  timings: KeyRingTimings;
  /** How often the stored keys are read again (JWT_KEYS_REFRESH_SECONDS). */
  refreshMs: number;
  /** Cache-Control max-age of the JWKS (JWKS_CACHE_SECONDS). */
  jwksMaxAgeSeconds: number;
}

export const KEYS_OPTIONS = Symbol('KEYS_OPTIONS');

interface KeysConfig {
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  JWT_PRIVATE_KEY?: string | undefined;
  JWT_PUBLIC_KEYS?: string[] | undefined;
  JWKS_CACHE_SECONDS: number;
  JWT_KEYS_REFRESH_SECONDS: number;
  JWT_KEY_RETIREMENT_SECONDS?: number | undefined;
}

/**
 * The rotation timings from the configuration: a new key signs once every identity replica has read
 * it and every verifier's cached JWKS has expired; a replaced key verifies for JWT_KEY_RETIREMENT_SECONDS,
 * by default `tokenLifetimeSeconds` (the access-token lifetime plus clock skew).
 */
export function keyRingTimings(config: KeysConfig, tokenLifetimeSeconds: number): KeyRingTimings {
  return {
    activationMs: (config.JWKS_CACHE_SECONDS + config.JWT_KEYS_REFRESH_SECONDS) * 1000,
    retirementMs: (config.JWT_KEY_RETIREMENT_SECONDS ?? tokenLifetimeSeconds) * 1000,
  };
}

export function keysModuleOptions(config: KeysConfig, tokenLifetimeSeconds: number): KeysModuleOptions {
  return {
    privateKeyPem: config.JWT_PRIVATE_KEY,
    publicKeyPems: config.JWT_PUBLIC_KEYS,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    timings: keyRingTimings(config, tokenLifetimeSeconds),
    refreshMs: config.JWT_KEYS_REFRESH_SECONDS * 1000,
    jwksMaxAgeSeconds: config.JWKS_CACHE_SECONDS,
  };
}
