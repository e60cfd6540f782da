import type { ConfigRule } from '@school/config';
import { z } from 'zod';

/** Development-only key of the signed URLs; production refuses to start with it (or without SIGNED_URL_SECRET). */
export const DEV_SIGNED_URL_SECRET = 'dev-only-signed-url-secret-change-me-in-production';

/**
 * STORAGE_DRIVER picks where files live (`local`: files under STORAGE_DIR). SIGNED_URL_SECRET keys
 * the HMAC of the local driver's signed URLs. UPLOAD_MAX_FILE_SIZE_MB is the administrator's
 * upload limit in MiB (contract §8; customers have 5 MiB fixed).
 */
export const storageEnv = {
  STORAGE_DRIVER: z.enum(['local']).default('local'),
  STORAGE_DIR: z.string().min(1).default('./data/storage'),
  SIGNED_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  UPLOAD_MAX_FILE_SIZE_MB: z.coerce.number().int().positive().default(50),
};

/** The development secret is public (it is in this file): a production media needs one of its own. */
export const signedUrlSecretRequiredInProduction: ConfigRule<{ NODE_ENV: string; SIGNED_URL_SECRET?: string | undefined }> = (config) =>
  config.NODE_ENV === 'production' && (!config.SIGNED_URL_SECRET || config.SIGNED_URL_SECRET === DEV_SIGNED_URL_SECRET)
    ? { variable: 'SIGNED_URL_SECRET', problem: 'must be set to a secret of your own in production' }
    : undefined;
