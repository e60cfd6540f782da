import { Module } from '@nestjs/common';
import { FeedbackController } from './feedback.controller.js';
import { FeedbackRepository } from './feedback.repository.js';
import { FeedbackService } from './feedback.service.js';
import { SentFeedback } from './sent-feedback.js';

/** Spec §4.3: the authenticated and guest feedback routes; and a sender's feedback for their copy (contract §11, over RPC). */
@Module({
  controllers: [FeedbackController],
  providers: [FeedbackRepository, FeedbackService, SentFeedback],
})
export class FeedbackModule {}
