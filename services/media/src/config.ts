import { type ConfigRule, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { signedUrlSecretRequiredInProduction, storageEnv } from './storage/storage.config.js';

export const mediaEnv = serviceEnv(SERVICES['media'].port, { ...storageEnv });

export type MediaConfig = z.infer<z.ZodObject<typeof mediaEnv>>;

/** Checked with the values at start-up: a production media signs its URLs with a secret of its own. */
export const mediaConfigRules: readonly ConfigRule<MediaConfig>[] = [signedUrlSecretRequiredInProduction];
