import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { eventsController, handledBy, InboxModule } from '@school/messaging/nest';
import { FeedbackErasureRepository } from './feedback-erasure.repository.js';
import { FeedbackErasureService } from './feedback-erasure.service.js';

/** What feedback consumes (`feedback.events`, its retry queues and dead-letter queue). */
export const ERASURE_EVENTS = { consumer: 'feedback', bindings: [EVENT_TYPES.userErased] } as const;

/** Erasures rarely come in bursts: a few unacknowledged at once are plenty. */
export const ERASURE_PREFETCH = 5;

/** Contract §11 in feedback: erased accounts' submissions lose their author. */
@Module({
  imports: [InboxModule],
  controllers: [eventsController({ [EVENT_TYPES.userErased]: handledBy(FeedbackErasureService, 'handle') })],
  providers: [FeedbackErasureRepository, FeedbackErasureService],
})
export class ErasureModule {}
