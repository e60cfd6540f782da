import { Injectable } from '@nestjs/common';
import { emailDigest, normalizeEmail } from '@school/http';
import { OUTBOX_TABLE, quoteIdent } from '@school/messaging';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, type User } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/**
 * What an erasure (contract §11) removes of an account in identity, in the caller's transaction:
 * the account's row and with it (foreign keys, ON DELETE CASCADE) its password hash, sessions,
 * refresh tokens, known devices and credentials; the outbox rows that name it, sent or not (an
 * unsent mail for it never goes out); the forgot and resend requests and the failed-login count of
 * its email and phone when no other account holds them.
 */
@Injectable()
export class ErasureRepository {
  private readonly users: Prisma.Sql;
  private readonly outbox: Prisma.Sql;

  constructor(schema: DatabaseSchema) {
    this.users = Prisma.raw(`${schema.sql}.users`);
    this.outbox = Prisma.raw(`${schema.sql}.${quoteIdent(OUTBOX_TABLE)}`);
  }

  /** The account, live or soft-deleted, locked to the transaction's end (a second erasure waits, then finds none). */
  async lockAccount(tx: Transaction, publicId: string): Promise<User | null> {
    const [row] = await this.db(tx).$queryRaw<{ id: number }[]>`SELECT id FROM ${this.users} WHERE public_id = ${publicId.toLowerCase()}::uuid FOR UPDATE`;
    return row ? this.db(tx).user.findUnique({ where: { id: row.id } }) : null;
  }

  async erase(tx: Transaction, user: User): Promise<void> {
    const db = this.db(tx);
    await db.$executeRaw`DELETE FROM ${this.outbox} WHERE payload->>'userId' = ${user.publicId}`;
    const others = { id: { not: user.id } };
    if ((await db.user.count({ where: { ...others, email: normalizeEmail(user.email) } })) === 0) {
      await db.messageRequest.deleteMany({ where: { email: normalizeEmail(user.email) } });
      await db.loginFailure.deleteMany({ where: { emailKey: emailDigest(user.email) } });
    }
    if (user.phone !== null && (await db.user.count({ where: { ...others, phone: user.phone } })) === 0) {
      await db.messageRequest.deleteMany({ where: { phone: user.phone } });
    }
    await db.user.delete({ where: { id: user.id } });
  }

  private db(tx: Transaction): Db {
    return clientOf<Db>(tx);
  }
}
