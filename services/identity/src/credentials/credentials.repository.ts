import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { CredentialPurpose, VerificationCredential } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** First key of the per-person advisory lock (second key: the user id); any constant no one else uses. */
const PERSON_CREDENTIALS_LOCK = 0x1d_c3ed;

/** First key of the per-destination advisory lock (second key: hashtext of the target). */
const TARGET_CREDENTIALS_LOCK = 0x1d_c3ee;

/** A user id no row has (ids start at 1): the person of a presentation that names no account. */
export const NOBODY = 0;

/** A credential id no row has (ids start at 1). */
const NO_CREDENTIAL = 0;

export interface NewCredential {
  userId: number;
  purpose: CredentialPurpose;
  tokenHash?: string;
  otpHash?: string;
  target: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Verification credentials; the only place that touches their table. */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Serialises every credential change of one person (issue, redeem, failed attempt) until the
   * transaction ends: two redemptions of one credential cannot both succeed, two forgot requests
   * cannot leave two live resets, and no failed attempt is lost. Statements after the lock see
   * everything the previous holder committed.
   */
  async lockPerson(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${PERSON_CREDENTIALS_LOCK}::int, ${userId}::int)) AS l`;
  }

  /** Serialises the requests sent to one destination (a phone number), whoever makes them. */
  async lockTarget(tx: Transaction, target: string): Promise<void> {
    await this.db(tx).$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${TARGET_CREDENTIALS_LOCK}::int, hashtext(${target}))) AS l`;
  }

  /** When the credentials of `purpose` issued since `since` were issued, to one person or to one target. */
  async issuedTimesSince(tx: Transaction, purpose: CredentialPurpose, by: { userId: number } | { target: string }, since: Date): Promise<Date[]> {
    const rows = await this.db(tx).verificationCredential.findMany({ where: { purpose, ...by, createdAt: { gte: since } }, select: { createdAt: true } });
    return rows.map((row) => row.createdAt);
  }

  /**
   * What lockPerson costs, for a presentation that names no account: a shared lock on a key no
   * person has, so such requests take the same steps without ever waiting for one another.
   */
  async lockNobody(tx: Transaction): Promise<void> {
    await this.db(tx).$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock_shared(${PERSON_CREDENTIALS_LOCK}::int, ${NOBODY}::int)) AS l`;
  }

  findByTokenHash(tokenHash: string, tx?: Transaction): Promise<VerificationCredential | null> {
    return this.db(tx).verificationCredential.findUnique({ where: { tokenHash } });
  }

  findById(id: number, tx?: Transaction): Promise<VerificationCredential | null> {
    return this.db(tx).verificationCredential.findUnique({ where: { id } });
  }

  /** The person's credentials of these purposes that are neither redeemed nor retired (expired ones included), newest first. */
  unfinishedOf(userId: number, purposes: readonly CredentialPurpose[], tx?: Transaction): Promise<VerificationCredential[]> {
    return this.db(tx).verificationCredential.findMany({
      where: { userId, purpose: { in: [...purposes] }, redeemedAt: null, retiredAt: null },
      orderBy: { id: 'desc' },
    });
  }

  /** How many credentials of these purposes the person was issued at or after `since`, whatever became of them. */
  countIssuedSince(tx: Transaction, userId: number, purposes: readonly CredentialPurpose[], since: Date): Promise<number> {
    return this.db(tx).verificationCredential.count({ where: { userId, purpose: { in: [...purposes] }, createdAt: { gte: since } } });
  }

  create(tx: Transaction, credential: NewCredential): Promise<VerificationCredential> {
    return this.db(tx).verificationCredential.create({ data: credential });
  }

  /** Retires the person's credentials of these purposes that are neither redeemed nor retired. */
  async retireUnfinished(tx: Transaction, userId: number, purposes: readonly CredentialPurpose[], now: Date): Promise<number> {
    const { count } = await this.db(tx).verificationCredential.updateMany({
      where: { userId, purpose: { in: [...purposes] }, redeemedAt: null, retiredAt: null },
      data: { retiredAt: now },
    });
    return count;
  }

  /** Marks it redeemed only if it is still live: false when someone else got there first. */
  async redeem(tx: Transaction, id: number, now: Date): Promise<boolean> {
    const { count } = await this.db(tx).verificationCredential.updateMany({
      where: { id, redeemedAt: null, retiredAt: null, expiresAt: { gt: now } },
      data: { redeemedAt: now },
    });
    return count === 1;
  }

  async recordFailedAttempt(tx: Transaction, id: number, attempts: number, retire: boolean, now: Date): Promise<void> {
    await this.commitWithoutFlushWait(tx);
    await this.db(tx).verificationCredential.updateMany({ where: { id }, data: { attempts, ...(retire && { retiredAt: now }) } });
  }

  /**
   * What recordFailedAttempt costs, for a failed code with no credential to count it on: the same
   * statement, matching no row, and the same commit (contract §4: the answer takes as long either way).
   */
  async recordNoAttempt(tx: Transaction): Promise<void> {
    await this.commitWithoutFlushWait(tx);
    await this.db(tx).verificationCredential.updateMany({ where: { id: NO_CREDENTIAL }, data: { attempts: 0 } });
  }

  /**
   * A failed attempt's transaction commits without waiting for its WAL flush: otherwise the flush
   * (milliseconds) would tell a counted attempt, so an existing account, from a code for nobody. The
   * count is visible to the next attempt at once; only a database crash within the WAL writer's
   * delay (about 200 ms) could forget it.
   */
  private async commitWithoutFlushWait(tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SET LOCAL synchronous_commit TO off`;
  }

  /** Deletes credentials that expired, were redeemed or were retired before `cutoff`. */
  async deleteSpentBefore(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.verificationCredential.deleteMany({
      where: { OR: [{ expiresAt: { lt: cutoff } }, { redeemedAt: { lt: cutoff } }, { retiredAt: { lt: cutoff } }] },
    });
    return count;
  }

  private db(tx: Transaction | undefined): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}
