import { Injectable } from '@nestjs/common';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { FailureCount } from './login-backoff-rules.js';

type Db = Prisma.TransactionClient;

/** The login_failures table, one row per email that failed since its last success. */
@Injectable()
export class LoginBackoffRepository {
  private readonly table: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.table = Prisma.raw(`${schema.sql}.login_failures`);
  }

  /** The email's count as it stands (no row: none). In SQL: every login reads it. */
  async read(emailKey: string): Promise<FailureCount> {
    const [row] = await this.prisma.$queryRaw<{ failures: number; blocked_until: Date | null }[]>`
      SELECT failures, blocked_until FROM ${this.table} WHERE email_key = ${emailKey}`;
    return { failures: row?.failures ?? 0, blockedUntil: row?.blocked_until ?? null };
  }

  /**
   * The email's count, its row locked until the transaction ends (created when missing). A success
   * may delete the row between the insert and the lock (clear, in another transaction); the row is
   * then created again, so the count returned is always one this transaction holds.
   */
  async lock(tx: Transaction, emailKey: string): Promise<FailureCount> {
    const db = clientOf<Db>(tx);
    for (;;) {
      await db.$executeRaw`INSERT INTO ${this.table} (email_key) VALUES (${emailKey}) ON CONFLICT (email_key) DO NOTHING`;
      const [row] = await db.$queryRaw<{ failures: number; blocked_until: Date | null }[]>`
        SELECT failures, blocked_until FROM ${this.table} WHERE email_key = ${emailKey} FOR UPDATE`;
      if (row) return { failures: row.failures, blockedUntil: row.blocked_until };
    }
  }

  async save(tx: Transaction, emailKey: string, count: FailureCount, now: Date): Promise<void> {
    await clientOf<Db>(tx).loginFailure.update({ where: { emailKey }, data: { failures: count.failures, blockedUntil: count.blockedUntil, updatedAt: now } });
  }

  async clear(emailKey: string, tx?: Transaction): Promise<void> {
    await clientOf<Db>(tx ?? this.prisma).loginFailure.deleteMany({ where: { emailKey } });
  }
}
