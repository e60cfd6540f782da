import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { type Prisma, PrismaClient } from '../generated/prisma/client.js';

/** An account's TOTP factor: `enabledAt` null while enrolment awaits its confirmation. */
export interface TotpFactor {
  secret: string;
  enabledAt: Date | null;
  lastStep: number | null;
}

/** A password step awaiting its code (contract §12). */
export interface MfaChallenge {
  tokenHash: string;
  userId: number;
  deviceId: string | null;
  deviceType: string | null;
  deviceName: string | null;
  failedAttempts: number;
  expiresAt: Date;
  endedAt: Date | null;
}

export type NewMfaChallenge = Omit<MfaChallenge, 'failedAttempts' | 'endedAt'>;

/** Two-step sign-in's tables (mfa_totp, mfa_recovery_codes, mfa_challenges): the only place that touches them. */
@Injectable()
export class MfaRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Serialises the two-step sign-in changes of one account until `tx` ends. */
  async lock(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.mfa'), ${userId}::int)`;
  }

  findTotp(userId: number, tx?: Transaction): Promise<TotpFactor | null> {
    return this.db(tx).mfaTotp.findUnique({ where: { userId }, select: { secret: true, enabledAt: true, lastStep: true } });
  }

  /** Replaces a pending enrolment's secret (the caller checked that none is enabled, under the lock). */
  async savePending(tx: Transaction, userId: number, secret: string): Promise<void> {
    await this.db(tx).mfaTotp.upsert({
      where: { userId },
      create: { userId, secret },
      update: { secret, enabledAt: null, lastStep: null, createdAt: new Date() },
    });
  }

  async enable(tx: Transaction, userId: number, at: Date): Promise<void> {
    await this.db(tx).mfaTotp.updateMany({ where: { userId, enabledAt: null }, data: { enabledAt: at, lastStep: null } });
  }

  /** Records `step` as the last one a login accepted if it is after the last; false when it is not (a replay, or a concurrent login). */
  async advanceStep(tx: Transaction, userId: number, step: number): Promise<boolean> {
    const { count } = await this.db(tx).mfaTotp.updateMany({
      where: { userId, enabledAt: { not: null }, OR: [{ lastStep: null }, { lastStep: { lt: step } }] },
      data: { lastStep: step },
    });
    return count === 1;
  }

  /** Turns it off: the factor and the recovery codes go; false when it was not on. */
  async remove(tx: Transaction, userId: number): Promise<boolean> {
    const db = this.db(tx);
    const { count } = await db.mfaTotp.deleteMany({ where: { userId, enabledAt: { not: null } } });
    if (count === 0) return false;
    await db.mfaRecoveryCode.deleteMany({ where: { userId } });
    await db.mfaChallenge.updateMany({ where: { userId, endedAt: null }, data: { endedAt: new Date() } });
    return true;
  }

  async replaceRecoveryCodes(tx: Transaction, userId: number, codeHashes: readonly string[]): Promise<void> {
    const db = this.db(tx);
    await db.mfaRecoveryCode.deleteMany({ where: { userId } });
    await db.mfaRecoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash })) });
  }

  /** Spends an unused recovery code; false when there is none with that hash (exactly one of concurrent uses wins). */
  async useRecoveryCode(tx: Transaction, userId: number, codeHash: string, at: Date): Promise<boolean> {
    const { count } = await this.db(tx).mfaRecoveryCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: at } });
    return count === 1;
  }

  recoveryCodesLeft(userId: number, tx?: Transaction): Promise<number> {
    return this.db(tx).mfaRecoveryCode.count({ where: { userId, usedAt: null } });
  }

  /** Opens a challenge, forgetting the account's ended or expired ones. */
  async createChallenge(challenge: NewMfaChallenge, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.mfaChallenge.deleteMany({ where: { userId: challenge.userId, OR: [{ endedAt: { not: null } }, { expiresAt: { lte: now } }] } }),
      this.prisma.mfaChallenge.create({ data: challenge }),
    ]);
  }

  findChallenge(tokenHash: string): Promise<MfaChallenge | null> {
    return this.prisma.mfaChallenge.findUnique({ where: { tokenHash } });
  }

  /** Counts a wrong code on a live challenge, ending it at the `limit`-th (each statement atomic, so concurrent wrong codes all count). */
  async countWrongCode(tokenHash: string, limit: number, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.mfaChallenge.updateMany({ where: { tokenHash, endedAt: null, expiresAt: { gt: now } }, data: { failedAttempts: { increment: 1 } } }),
      this.prisma.mfaChallenge.updateMany({ where: { tokenHash, endedAt: null, failedAttempts: { gte: limit } }, data: { endedAt: now } }),
    ]);
  }

  /** Ends a live challenge (its one use); false when it was no longer live (used, retired or expired). */
  async useChallenge(tx: Transaction, tokenHash: string, now: Date): Promise<boolean> {
    const { count } = await this.db(tx).mfaChallenge.updateMany({ where: { tokenHash, endedAt: null, expiresAt: { gt: now } }, data: { endedAt: now } });
    return count === 1;
  }

  /** Deletes challenges that ended (used or retired) or expired before `cutoff`; how many. */
  async deleteChallengesEndedBefore(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.mfaChallenge.deleteMany({ where: { OR: [{ endedAt: { lt: cutoff } }, { expiresAt: { lt: cutoff } }] } });
    return count;
  }

  private db(tx: Transaction | undefined): Prisma.TransactionClient {
    return clientOf<Prisma.TransactionClient>(tx ?? this.prisma);
  }
}
