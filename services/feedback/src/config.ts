import { amqpEnv, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const feedbackEnv = serviceEnv(SERVICES.feedback.port, { ...amqpEnv });

export type FeedbackConfig = z.infer<z.ZodObject<typeof feedbackEnv>>;
