import { SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const notifierEnv = serviceEnv(SERVICES['notifier'].port, {});

export type NotifierConfig = z.infer<z.ZodObject<typeof notifierEnv>>;
