import { amqpEnv, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const referenceDataEnv = serviceEnv(SERVICES['reference-data'].port, { ...amqpEnv });

export type ReferenceDataConfig = z.infer<z.ZodObject<typeof referenceDataEnv>>;
