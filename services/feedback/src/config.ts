import { amqpEnv, type ConfigRule, forwardingEnv, forwardingSecretRequiredInProduction, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const feedbackEnv = serviceEnv(SERVICES.feedback.port, { ...amqpEnv, ...forwardingEnv });

export type FeedbackConfig = z.infer<z.ZodObject<typeof feedbackEnv>>;

/** Checked with the values at start-up: a production feedback has the gateway's forwarding secret. */
export const feedbackConfigRules: readonly ConfigRule<FeedbackConfig>[] = [forwardingSecretRequiredInProduction];
