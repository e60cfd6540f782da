import { amqpEnv, type ConfigRule, forwardingEnv, forwardingSecretRequiredInProduction, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { s3SettingsRequired, signedUrlSecretRequiredInProduction, storageEnv } from './storage/storage.config.js';
import { uploadsEnv } from './uploads/uploads.config.js';

/** The broker carries its audit entries (contract §13); the forwarding secret proves the client address they name. */
export const mediaEnv = serviceEnv(SERVICES['media'].port, { ...amqpEnv, ...forwardingEnv, ...storageEnv, ...uploadsEnv });

export type MediaConfig = z.infer<z.ZodObject<typeof mediaEnv>>;

/** Checked with the values at start-up: a production media signs its URLs with a secret of its own and has the gateway's forwarding secret; s3 has its settings. */
export const mediaConfigRules: readonly ConfigRule<MediaConfig>[] = [signedUrlSecretRequiredInProduction, forwardingSecretRequiredInProduction, s3SettingsRequired];
