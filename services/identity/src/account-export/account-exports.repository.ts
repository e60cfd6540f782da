import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** First key of the per-account advisory lock of the copy count (second key: the user id); any constant no one else uses. */
const ACCOUNT_EXPORT_LOCK = 0x1d_e4b0;

/** The copies made of each account's data (contract §11); the only place that touches their table. */
@Injectable()
export class AccountExportsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Serialises the counting of one account's copies until the transaction ends, whichever replica counts. */
  async lockAccount(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${ACCOUNT_EXPORT_LOCK}::int, ${userId}::int)) AS l`;
  }

  async madeSince(tx: Transaction, userId: number, since: Date): Promise<Date[]> {
    const rows = await this.db(tx).accountExport.findMany({ where: { userId, createdAt: { gte: since } }, select: { createdAt: true } });
    return rows.map((row) => row.createdAt);
  }

  /** Drops the account's copies older than `before`: they count no more. */
  async forgetBefore(tx: Transaction, userId: number, before: Date): Promise<void> {
    await this.db(tx).accountExport.deleteMany({ where: { userId, createdAt: { lt: before } } });
  }

  /** Records one copy; its id, to forget it should the copy not be made after all. */
  async record(tx: Transaction, userId: number, at: Date): Promise<number> {
    const row = await this.db(tx).accountExport.create({ data: { userId, createdAt: at }, select: { id: true } });
    return row.id;
  }

  async forget(id: number): Promise<void> {
    await this.prisma.accountExport.deleteMany({ where: { id } });
  }

  private db(tx: Transaction | undefined): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}
