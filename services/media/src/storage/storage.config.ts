import type { ConfigRule } from '@school/config';
import { z } from 'zod';

const httpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'must be a URL (http: or https:)');

/**
 * STORAGE_DRIVER picks where files live: `local` (files under STORAGE_DIR, HMAC-signed gateway
 * URLs keyed by SIGNED_URL_SECRET, unset: a key generated once and kept in the media schema) or
 * `s3` (the S3_* bucket, the store's presigned URLs, public objects under S3_PUBLIC_BASE_URL).
 * UPLOAD_MAX_FILE_SIZE_MB is the administrator's upload limit in MiB (contract §8; customers have
 * 5 MiB fixed).
 */
export const storageEnv = {
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().min(1).default('./data/storage'),
  SIGNED_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  UPLOAD_MAX_FILE_SIZE_MB: z.coerce.number().int().positive().default(50),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  /** Where public objects are read (a CDN or the bucket's public URL); unset: <S3_ENDPOINT>/<S3_BUCKET>. */
  S3_PUBLIC_BASE_URL: httpUrl.optional(),
};

/** What the storage wiring reads: its own variables and where the gateway serves signed files (PUBLIC_BASE_URL). */
export type StorageConfig = z.infer<z.ZodObject<typeof storageEnv>> & { PUBLIC_BASE_URL: string };

type S3Env = {
  STORAGE_DRIVER: 'local' | 's3';
  S3_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_ACCESS_KEY?: string | undefined;
  S3_SECRET_KEY?: string | undefined;
};

/** The s3 driver needs its endpoint, bucket and credentials. */
export const s3SettingsRequired: ConfigRule<S3Env> = (config) => {
  if (config.STORAGE_DRIVER !== 's3') return undefined;
  const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const).find((name) => !config[name]);
  return missing ? { variable: missing, problem: 'must be set when STORAGE_DRIVER is s3' } : undefined;
};

/**
 * Outside production an unset SIGNED_URL_SECRET is generated once per installation and kept in the
 * media schema (signedUrlSecretOf); a production media is given one of its own.
 */
export const signedUrlSecretRequiredInProduction: ConfigRule<{ NODE_ENV: string; SIGNED_URL_SECRET?: string | undefined }> = (config) =>
  config.NODE_ENV === 'production' && !config.SIGNED_URL_SECRET ? { variable: 'SIGNED_URL_SECRET', problem: 'must be set to a secret of your own in production' } : undefined;
