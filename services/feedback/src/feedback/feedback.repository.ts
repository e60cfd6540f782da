import { Injectable } from '@nestjs/common';
import { OUTBOX_TABLE, type OutboxEntry, quoteIdent } from '@school/messaging';
import { DatabaseSchema } from '@school/service';
import { type FeedbackSubmission, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type NewFeedbackSubmission = Prisma.FeedbackSubmissionUncheckedCreateInput & { id: string; createdAt: Date };

/** What a person's copy of their data shows of a submission they sent signed in (contract §11). */
export type SentSubmission = Pick<FeedbackSubmission, 'id' | 'category' | 'subject' | 'message' | 'createdAt'>;

/** Feedback submissions (spec §2.5): the only place that touches their table. One-way: only a sender's own copy reads them back. */
@Injectable()
export class FeedbackRepository {
  private readonly submissions: Prisma.Sql;
  private readonly category: Prisma.Sql;
  private readonly outbox: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.submissions = Prisma.raw(`${schema.sql}.feedback_submissions`);
    this.category = Prisma.raw(`${schema.sql}.feedback_category`);
    this.outbox = Prisma.raw(`${schema.sql}.${quoteIdent(OUTBOX_TABLE)}`);
  }

  /**
   * The submission and its event (spec §6) in ONE statement: both rows or neither, with no
   * interactive transaction (issue 36: its BEGIN, COMMIT and Prisma's bookkeeping were most of a
   * submission's cost). The outbox trigger's NOTIFY fires at its commit, as in a transaction.
   */
  async createWithEvent(submission: NewFeedbackSubmission, event: OutboxEntry): Promise<void> {
    const { id, userId = null, name = null, email = null, phone = null, category, subject = null, message, ip = null, deviceId = null, userAgent = null, createdAt } = submission;
    await this.prisma.$executeRaw`
      WITH submission AS (
        INSERT INTO ${this.submissions} (id, user_id, name, email, phone, category, subject, message, ip, device_id, user_agent, created_at)
        VALUES (${id}::uuid, ${userId}::uuid, ${name}, ${email}, ${phone}, ${category}::${this.category}, ${subject}, ${message}, ${ip}, ${deviceId}, ${userAgent}, ${createdAt})
      )
      INSERT INTO ${this.outbox} (id, type, payload, traceparent) VALUES (${event.id}::uuid, ${event.type}, ${event.payload}::jsonb, ${event.traceparent})`;
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
