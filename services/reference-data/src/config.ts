import { amqpEnv, type ConfigRule, forwardingEnv, forwardingSecretRequiredInProduction, SERVICES, serviceEnv } from '@school/config';
import { z } from 'zod';
import { listCacheEnv } from './list-cache/list-cache.config.js';

export const referenceDataEnv = serviceEnv(SERVICES['reference-data'].port, {
  ...amqpEnv,
  ...forwardingEnv,
  ...listCacheEnv,
  /** Unacknowledged event messages (identity's address events) this replica holds at once. */
  AMQP_PREFETCH: z.coerce.number().int().min(1).max(1000).default(10),
});

export type ReferenceDataConfig = z.infer<z.ZodObject<typeof referenceDataEnv>>;

/** Checked with the values at start-up: a production reference-data has the gateway's forwarding secret (its audit entries name the client address). */
export const referenceDataConfigRules: readonly ConfigRule<ReferenceDataConfig>[] = [forwardingSecretRequiredInProduction];
