import { amqpEnv, type ConfigRule, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { s3SettingsRequired, signedUrlSecretRequiredInProduction, storageEnv } from './storage/storage.config.js';
import { uploadsEnv } from './uploads/uploads.config.js';

export const mediaEnv = serviceEnv(SERVICES['media'].port, { ...amqpEnv, ...storageEnv, ...uploadsEnv });

export type MediaConfig = z.infer<z.ZodObject<typeof mediaEnv>>;

/** Checked with the values at start-up: a production media signs its URLs with a secret of its own; s3 has its settings. */
export const mediaConfigRules: readonly ConfigRule<MediaConfig>[] = [signedUrlSecretRequiredInProduction, s3SettingsRequired];
