import { Injectable } from '@nestjs/common';
import { OUTBOX_TABLE, quoteIdent } from '@school/messaging';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma } from '../generated/prisma/client.js';

/** How an email column is matched against the event's digest: SHA-256 of the address trimmed and lower-cased (emailDigest of @school/http). */
const digestOf = (column: Prisma.Sql) => Prisma.sql`encode(sha256(convert_to(lower(btrim(${column})), 'UTF8')), 'hex')`;

/**
 * What an erasure (contract §11) changes in feedback, in the caller's transaction. Submissions keep
 * category, subject, message and date; what named or described their sender goes.
 */
@Injectable()
export class FeedbackErasureRepository {
  private readonly submissions: Prisma.Sql;
  private readonly outbox: Prisma.Sql;

  constructor(schema: DatabaseSchema) {
    this.submissions = Prisma.raw(`${schema.sql}.feedback_submissions`);
    this.outbox = Prisma.raw(`${schema.sql}.${quoteIdent(OUTBOX_TABLE)}`);
  }

  /** The account's own submissions no longer link to it; guest submissions that gave its email lose name, email and phone. */
  async unlink(tx: Transaction, userId: string, emailDigest: string): Promise<number> {
    const db = clientOf<Prisma.TransactionClient>(tx);
    const anonymous = { userId: null, name: null, email: null, phone: null, ip: null, deviceId: null, userAgent: null };
    const own = await db.feedbackSubmission.updateMany({ where: { userId }, data: anonymous });
    const guest = await db.$executeRaw`
      UPDATE ${this.submissions}
         SET name = NULL, email = NULL, phone = NULL, ip = NULL, device_id = NULL, user_agent = NULL
       WHERE email IS NOT NULL AND ${digestOf(Prisma.raw('email'))} = ${emailDigest}`;
    return own.count + guest;
  }

  /** The outbox's `feedback.submitted` rows of those submissions, sent or not: they name the sender. */
  async forgetEvents(tx: Transaction, userId: string, emailDigest: string): Promise<void> {
    await clientOf<Prisma.TransactionClient>(tx).$executeRaw`
      DELETE FROM ${this.outbox}
       WHERE payload->'from'->>'userId' = ${userId}
          OR (payload->'from'->>'email' IS NOT NULL AND ${digestOf(Prisma.sql`payload->'from'->>'email'`)} = ${emailDigest})`;
  }
}
