import { randomBytes } from 'node:crypto';
import type { ConfigRule } from '@school/config';
import { z } from 'zod';

/**
 * Two-step sign-in (contract §12). MFA_ENCRYPTION_KEY keys the AES-256-GCM encryption of TOTP
 * secrets and the HMAC of recovery codes; unset outside production, one is generated at random once
 * per installation and kept in the identity schema (as OTP_SECRET). MFA_ISSUER names the product in
 * authenticator apps. MFA_TOKEN_TTL_SECONDS is how long the password step's mfaToken lives
 * (contract §12: 5 minutes; tests shorten it).
 */
export const mfaEnv = {
  MFA_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  MFA_ISSUER: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[^:]+$/, 'must not contain a colon')
    .default('School Commerce'),
  MFA_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
};

export type MfaEnv = z.infer<z.ZodObject<typeof mfaEnv>> & { NODE_ENV: string };

export interface MfaOptions {
  encryptionKey: string;
  issuer: string;
  tokenTtlMs: number;
}

/** A production identity is given its key: a generated one lives in the database whose secrets it protects. */
export const mfaKeyRequiredInProduction: ConfigRule<{ NODE_ENV: string; MFA_ENCRYPTION_KEY?: string | undefined }> = (config) =>
  config.NODE_ENV === 'production' && !config.MFA_ENCRYPTION_KEY ? { variable: 'MFA_ENCRYPTION_KEY', problem: 'must be set to a secret of your own in production' } : undefined;

/** The name of the generated key in installation_secrets. */
export const GENERATED_MFA_KEY = 'mfa';

/** A generated key: 256 random bits. */
export function newMfaKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The options of a configuration that passed mfaKeyRequiredInProduction; `keptKey` when MFA_ENCRYPTION_KEY is unset. */
export function mfaOptionsOf(config: MfaEnv, keptKey?: string): MfaOptions {
  const encryptionKey = config.MFA_ENCRYPTION_KEY ?? keptKey;
  if (encryptionKey === undefined) throw new Error('MFA_ENCRYPTION_KEY is unset and no generated key was given');
  return { encryptionKey, issuer: config.MFA_ISSUER, tokenTtlMs: config.MFA_TOKEN_TTL_SECONDS * 1_000 };
}

export const MFA_OPTIONS = Symbol('MFA_OPTIONS');
