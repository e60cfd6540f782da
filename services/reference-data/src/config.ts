import { amqpEnv, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { academicSessionsEnv } from './academic-sessions/academic-sessions.config.js';

export const referenceDataEnv = serviceEnv(SERVICES['reference-data'].port, { ...amqpEnv, ...academicSessionsEnv });

export type ReferenceDataConfig = z.infer<z.ZodObject<typeof referenceDataEnv>>;
