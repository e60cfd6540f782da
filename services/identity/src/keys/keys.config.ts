import { z } from 'zod';
import { signingAlgorithmOf } from './signing-key.js';

/**
 * JWT_PRIVATE_KEY: the access-token signing key, PKCS#8 PEM, Ed25519 (EdDSA) or P-256 (ES256).
 * `\n` escapes are accepted for environments that cannot hold newlines. Unset: identity keeps a
 * generated Ed25519 key in its schema (development).
 */
export const keysEnv = {
  JWT_PRIVATE_KEY: z
    .string()
    .transform((value) => value.replace(/\\n/g, '\n').trim())
    .refine((pem) => signingAlgorithmOf(pem) !== undefined, 'must be an Ed25519 or P-256 private key in PKCS#8 PEM')
    .optional(),
};
