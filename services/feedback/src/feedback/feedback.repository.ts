import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { type FeedbackSubmission, type Prisma, PrismaClient } from '../generated/prisma/client.js';

export type NewFeedbackSubmission = Prisma.FeedbackSubmissionUncheckedCreateInput & { id: string };

/** What a person's copy of their data shows of a submission they sent signed in (contract §11). */
export type SentSubmission = Pick<FeedbackSubmission, 'id' | 'category' | 'subject' | 'message' | 'createdAt'>;

/** Feedback submissions (spec §2.5): the only place that touches their table. One-way: only a sender's own copy reads them back. */
@Injectable()
export class FeedbackRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(submission: NewFeedbackSubmission, tx: Transaction): Promise<FeedbackSubmission> {
    return clientOf<Prisma.TransactionClient>(tx).feedbackSubmission.create({ data: submission });
  }

  /** Every submission the account (its publicId) sent signed in, oldest first. */
  sentBy(userId: string): Promise<SentSubmission[]> {
    return this.prisma.feedbackSubmission.findMany({
      where: { userId },
      select: { id: true, category: true, subject: true, message: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }
}
