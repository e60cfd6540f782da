import type { ConfigRule } from '@school/config';
import { z } from 'zod';
import { publicKeyPems, signingAlgorithmOf, verifyingAlgorithmOf } from './signing-key.js';

/**
 * JWT_PRIVATE_KEY: the access-token signing key, PKCS#8 PEM, Ed25519 (EdDSA) or P-256 (ES256).
 * `\n` escapes are accepted for environments that cannot hold newlines. Unset: identity keeps a
 * generated Ed25519 key in its schema (development and tests only; production refuses to start).
 */
export const keysEnv = {
  JWT_PRIVATE_KEY: z
    .string()
    .transform((value) => value.replace(/\\n/g, '\n').trim())
    .refine((pem) => signingAlgorithmOf(pem) !== undefined, 'must be an Ed25519 or P-256 private key in PKCS#8 PEM')
    .optional(),
  /**
   * Public keys (SPKI PEM, Ed25519 or P-256, several one after the other) published in the JWKS beside
   * JWT_PRIVATE_KEY's: the previous key until its tokens expire, or the next one before it signs
   * (README, Signing key rotation). Only with JWT_PRIVATE_KEY.
   */
  JWT_PUBLIC_KEYS: z
    .string()
    .transform((value) => publicKeyPems(value.replace(/\\n/g, '\n')))
    .refine((pems) => pems.length > 0 && pems.every((pem) => verifyingAlgorithmOf(pem) !== undefined), 'must be Ed25519 or P-256 public keys in SPKI PEM')
    .optional(),
  /** How often identity re-reads the keys kept in its schema, so every replica follows a rotation. */
  JWT_KEYS_REFRESH_SECONDS: z.coerce.number().int().positive().max(3600).default(30),
  /** How long a replaced key keeps verifying; unset: the access-token lifetime plus clock skew. */
  JWT_KEY_RETIREMENT_SECONDS: z.coerce.number().int().positive().optional(),
};

/** The generated key is a development and test feature: a production identity signs with a key it was given. */
export const signingKeyRequiredInProduction: ConfigRule<{ NODE_ENV: string; JWT_PRIVATE_KEY?: string | undefined }> = (config) =>
  config.NODE_ENV === 'production' && !config.JWT_PRIVATE_KEY
    ? { variable: 'JWT_PRIVATE_KEY', problem: 'must be set in production (the generated signing key is for development and tests only)' }
    : undefined;

/** Extra public keys go with a configured signing key; beside stored keys they would be a mistake left in place. */
export const publicKeysNeedPrivateKey: ConfigRule<{ JWT_PRIVATE_KEY?: string | undefined; JWT_PUBLIC_KEYS?: string[] | undefined }> = (config) =>
  config.JWT_PUBLIC_KEYS && !config.JWT_PRIVATE_KEY
    ? { variable: 'JWT_PUBLIC_KEYS', problem: 'goes with JWT_PRIVATE_KEY (keys kept in the identity schema rotate with npm run keys:rotate)' }
    : undefined;
