import { randomBytes } from 'node:crypto';
import type { ConfigRule } from '@school/config';
import { z } from 'zod';
import type { CredentialLifetimes } from './credential-state.js';

const whole = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/**
 * OTP_SECRET keys the HMAC under which one-time codes are stored; unset outside production, one is
 * generated at random once per installation and kept in the identity schema. OTP_TTL_MINUTES (reset and phone
 * codes, spec §8: 15), INVITE_TTL_DAYS (spec §8: 7) and EMAIL_VERIFICATION_TTL_HOURS (24) are the
 * lifetimes of the credentials. MESSAGE_REQUESTS_INTERVAL_MS (1000) is how often the worker deals
 * with the forgot and resend requests the public routes took.
 */
export const credentialsEnv = {
  OTP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  OTP_TTL_MINUTES: whole(15, 24 * 60),
  INVITE_TTL_DAYS: whole(7, 90),
  EMAIL_VERIFICATION_TTL_HOURS: whole(24, 24 * 30),
  MESSAGE_REQUESTS_INTERVAL_MS: whole(1_000, 60_000),
};

/** The variables the credentials read: their own and two every service has. */
export type CredentialsEnv = z.infer<z.ZodObject<typeof credentialsEnv>> & { NODE_ENV: string; PUBLIC_BASE_URL: string };

export interface CredentialsOptions {
  otpSecret: string;
  lifetimes: CredentialLifetimes;
  /** PUBLIC_BASE_URL: the host of the links in emails (contract §1). */
  publicBaseUrl: string;
  messageRequestsIntervalMs: number;
}

/** A production identity is given its secret: a generated one lives in the database it protects. */
export const otpSecretRequiredInProduction: ConfigRule<{ NODE_ENV: string; OTP_SECRET?: string | undefined }> = (config) =>
  config.NODE_ENV === 'production' && !config.OTP_SECRET ? { variable: 'OTP_SECRET', problem: 'must be set to a secret of your own in production' } : undefined;

/** The name of the generated OTP secret in installation_secrets. */
export const GENERATED_OTP_SECRET = 'otp';

/** A generated OTP secret: 256 random bits. */
export function newOtpSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The options of a configuration that passed otpSecretRequiredInProduction; `keptOtpSecret` when OTP_SECRET is unset. */
export function credentialsOptionsOf(config: CredentialsEnv, keptOtpSecret?: string): CredentialsOptions {
  const otpSecret = config.OTP_SECRET ?? keptOtpSecret;
  if (otpSecret === undefined) throw new Error('OTP_SECRET is unset and no generated secret was given');
  return {
    otpSecret,
    lifetimes: {
      otpMinutes: config.OTP_TTL_MINUTES,
      inviteDays: config.INVITE_TTL_DAYS,
      emailVerificationHours: config.EMAIL_VERIFICATION_TTL_HOURS,
    },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    messageRequestsIntervalMs: config.MESSAGE_REQUESTS_INTERVAL_MS,
  };
}

export const CREDENTIALS_OPTIONS = Symbol('CREDENTIALS_OPTIONS');
