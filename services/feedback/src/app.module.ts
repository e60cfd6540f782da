import { eventServiceModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { FEEDBACK_SENT_BY_ACCOUNT } from '@school/contracts';
import type { FeedbackConfig } from './config.js';
import { ERASURE_EVENTS, ERASURE_PREFETCH, ErasureModule } from './erasure/erasure.module.js';
import { FeedbackModule } from './feedback/feedback.module.js';
import { PrismaClient } from './generated/prisma/client.js';
import { FEEDBACK_DOCUMENT } from './openapi.js';

// The client address the gateway vouches for is stored with each submission.
export const AppModule = eventServiceModule<FeedbackConfig>('feedback', PrismaClient, {
  outbox: true,
  // Answers identity's question for a person's copy of their data (contract §11).
  serves: [FEEDBACK_SENT_BY_ACCOUNT],
  // Learns identity's erasures (contract §11) through its own durable queue.
  consumes: { ...ERASURE_EVENTS, prefetch: ERASURE_PREFETCH },
  modules: [FeedbackModule, ErasureModule, OpenApiModule.forRoot(FEEDBACK_DOCUMENT)],
});
