import { SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const feedbackEnv = serviceEnv(SERVICES['feedback'].port, {});

export type FeedbackConfig = z.infer<z.ZodObject<typeof feedbackEnv>>;
