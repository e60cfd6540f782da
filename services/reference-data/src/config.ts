import { amqpEnv, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { listCacheEnv } from './list-cache/list-cache.config.js';

export const referenceDataEnv = serviceEnv(SERVICES['reference-data'].port, { ...amqpEnv, ...listCacheEnv });

export type ReferenceDataConfig = z.infer<z.ZodObject<typeof referenceDataEnv>>;
