import { Injectable } from '@nestjs/common';
import { FEEDBACK_SENT_BY_ACCOUNT, type RpcAnswer, type RpcRequest } from '@school/contracts';
import { RpcHandler } from '@school/messaging/nest';
import { FeedbackRepository } from './feedback.repository.js';

/**
 * Identity's question for a person's copy of their data (contract §11): what they sent signed in.
 * Only what they wrote and when; nothing of the request that carried it (ip, device, user agent).
 */
@Injectable()
export class SentFeedback {
  constructor(private readonly repository: FeedbackRepository) {}

  @RpcHandler(FEEDBACK_SENT_BY_ACCOUNT)
  async answer(request: RpcRequest<typeof FEEDBACK_SENT_BY_ACCOUNT>): Promise<RpcAnswer<typeof FEEDBACK_SENT_BY_ACCOUNT>> {
    const submissions = await this.repository.sentBy(request.userId);
    return {
      submissions: submissions.map((submission) => ({
        id: submission.id,
        category: submission.category,
        subject: submission.subject,
        message: submission.message,
        createdAt: submission.createdAt.toISOString(),
      })),
    };
  }
}
