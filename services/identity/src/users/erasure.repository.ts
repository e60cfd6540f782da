import { Injectable } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { emailDigest, normalizeEmail } from '@school/http';
import { OUTBOX_TABLE, quoteIdent } from '@school/messaging';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, type User } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** The audited fields of an account that name the person (AUDITED_USER_FIELDS less role and ban). */
const PERSONAL_FIELDS = ['email', 'name', 'phone', 'address'] as const;

/**
 * What an erasure (contract §11) removes of an account in identity, in the caller's transaction:
 * the account's row and with it (foreign keys, ON DELETE CASCADE) its password hash, sessions,
 * refresh tokens, known devices and credentials; the outbox rows that name it, sent or not (an
 * unsent mail for it never goes out); the forgot and resend requests and the failed-login count of
 * its email and phone when no other account holds them; and the personal fields of the audit
 * entries that target it still in the outbox.
 */
@Injectable()
export class ErasureRepository {
  private readonly users: Prisma.Sql;
  private readonly outbox: Prisma.Sql;
  private readonly requests: Prisma.Sql;

  constructor(schema: DatabaseSchema) {
    this.requests = Prisma.raw(`${schema.sql}.message_requests`);
    this.users = Prisma.raw(`${schema.sql}.users`);
    this.outbox = Prisma.raw(`${schema.sql}.${quoteIdent(OUTBOX_TABLE)}`);
  }

  /** The account, live or soft-deleted, or null. */
  find(tx: Transaction, publicId: string): Promise<User | null> {
    return this.db(tx).user.findUnique({ where: { publicId: publicId.toLowerCase() } });
  }

  /**
   * The account's row locked to the transaction's end, or null when it is gone (a concurrent erasure
   * committed first). Taken after the person's credential and login locks, in the order the flows
   * that write under the account take them, so that none waits on the other.
   */
  async lock(tx: Transaction, id: number): Promise<User | null> {
    const [row] = await this.db(tx).$queryRaw<{ id: number }[]>`SELECT id FROM ${this.users} WHERE id = ${id} FOR UPDATE`;
    return row ? this.db(tx).user.findUnique({ where: { id: row.id } }) : null;
  }

  async erase(tx: Transaction, user: User): Promise<void> {
    const db = this.db(tx);
    await db.$executeRaw`DELETE FROM ${this.outbox} WHERE payload->>'userId' = ${user.publicId}`;
    // Audit entries that target the account keep their action and the publicId, not its personal fields (contract §13).
    await db.$executeRaw`
      UPDATE ${this.outbox} SET payload = jsonb_set(payload, '{changes}', (payload->'changes') - ${[...PERSONAL_FIELDS]}::text[])
       WHERE type = ${EVENT_TYPES.auditEntryRecorded} AND payload->'target'->>'type' = 'user' AND payload->'target'->>'id' = ${user.publicId}`;
    const others = { id: { not: user.id } };
    if ((await db.user.count({ where: { ...others, email: normalizeEmail(user.email) } })) === 0) {
      await this.deleteWaitingRequests(tx, Prisma.sql`email = ${normalizeEmail(user.email)}`);
      await db.loginFailure.deleteMany({ where: { emailKey: emailDigest(user.email) } });
    }
    if (user.phone !== null && (await db.user.count({ where: { ...others, phone: user.phone } })) === 0) {
      await this.deleteWaitingRequests(tx, Prisma.sql`phone = ${user.phone}`);
    }
    await db.user.delete({ where: { id: user.id } });
  }

  /**
   * Forgot and resend requests no worker is serving at this moment. One being served waits for the
   * person's lock this transaction holds, then finds no account (nothing is sent), and is deleted
   * by the worker itself: waiting for it here would be a deadlock.
   */
  private async deleteWaitingRequests(tx: Transaction, condition: Prisma.Sql): Promise<void> {
    await this.db(tx).$executeRaw`DELETE FROM ${this.requests} WHERE id IN (SELECT id FROM ${this.requests} WHERE ${condition} FOR UPDATE SKIP LOCKED)`;
  }

  private db(tx: Transaction): Db {
    return clientOf<Db>(tx);
  }
}
