import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { FeedbackSubmission, Prisma } from '../generated/prisma/client.js';

export type NewFeedbackSubmission = Prisma.FeedbackSubmissionUncheckedCreateInput & { id: string };

/** Feedback submissions (spec §2.5): the only place that touches their table. Write-only: feedback is one-way. */
@Injectable()
export class FeedbackRepository {
  create(submission: NewFeedbackSubmission, tx: Transaction): Promise<FeedbackSubmission> {
    return clientOf<Prisma.TransactionClient>(tx).feedbackSubmission.create({ data: submission });
  }
}
