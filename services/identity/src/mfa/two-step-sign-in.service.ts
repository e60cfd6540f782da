import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { newMfaToken } from '@school/auth';
import { EVENT_TYPES, type MfaChallengeDto, type MfaEnrolmentDto, type MfaStatusDto, type RecoveryCodesDto } from '@school/contracts';
import { AppError } from '@school/http';
import { Outbox } from '@school/messaging';
import { type Transaction, UnitOfWork } from '@school/service';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { type DeviceInfo, SessionsService } from '../sessions/sessions.service.js';
import { MFA_OPTIONS, type MfaOptions } from './mfa.config.js';
import { MfaCrypto } from './mfa-crypto.js';
import { type MfaChallenge, MfaRepository, type TotpFactor } from './mfa.repository.js';
import { acceptedStep, looksLikeTotp, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUrlOf } from './totp.js';

/** The account a two-step sign-in change is about, as its emails name it. */
export interface MfaHolder {
  id: number;
  publicId: string;
  email: string;
  name: string;
}

/** How a second step proved itself. */
export type SecondFactor = 'totp' | 'recovery_code';

/** Contract §12: the fifth wrong code retires the mfaToken. */
export const MFA_TOKEN_WRONG_CODES = 5;

const codeInvalid = () => new AppError('AUTH_MFA_CODE_INVALID');
const notEnabled = () => new AppError('AUTH_MFA_NOT_ENABLED');

export function hashMfaToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Two-step sign-in for the administrator surface (contract §12), in its words. Each change of an
 * account's two-step state (start, confirm, new recovery codes, turning off, an administrator's
 * reset, a second step) is one method holding its transaction, under the account's lock, so that
 * whatever else the change must record (its audit entry) joins that transaction.
 *
 * A TOTP code is accepted for the step before, the current one and the one after. At login it must
 * also be of a step after the last one a login accepted (no replay): the step it proved is
 * recorded in the same transaction, by a conditional write, so two concurrent logins with one code
 * cannot both pass. The signed-in holder's own requests (confirm, new recovery codes, turning off)
 * prove possession of the app within the same window and neither spend nor record a step: the
 * replay rule guards sign-in, which is where a code seen over a shoulder would be of use.
 */
@Injectable()
export class TwoStepSignIn {
  private readonly crypto: MfaCrypto;

  constructor(
    private readonly repository: MfaRepository,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    @Inject(MFA_OPTIONS) private readonly options: MfaOptions,
  ) {
    this.crypto = new MfaCrypto(options.encryptionKey);
  }

  async status(userId: number): Promise<MfaStatusDto> {
    const factor = await this.repository.findTotp(userId);
    const totp = factor?.enabledAt != null;
    return { totp, recoveryCodesLeft: totp ? await this.repository.recoveryCodesLeft(userId) : 0 };
  }

  async isOn(userId: number): Promise<boolean> {
    return (await this.repository.findTotp(userId))?.enabledAt != null;
  }

  /** A new secret, pending until confirmed; it replaces an unconfirmed one. 409 when two-step sign-in is on. */
  async start(holder: MfaHolder): Promise<MfaEnrolmentDto> {
    const secret = newTotpSecret();
    await this.unitOfWork.run(async (tx) => {
      await this.repository.lock(tx, holder.id);
      if ((await this.repository.findTotp(holder.id, tx))?.enabledAt) throw new AppError('AUTH_MFA_ALREADY_ENABLED');
      await this.repository.savePending(tx, holder.id, this.crypto.encryptSecret(holder.id, secret));
    });
    return { secret, otpauthUrl: otpauthUrlOf(secret, this.options.issuer, holder.email) };
  }

  /** A code of the pending secret turns it on: ten recovery codes, and every other session of the holder ends. */
  async confirm(holder: MfaHolder, keepSessionId: string, code: string): Promise<RecoveryCodesDto> {
    return this.unitOfWork.run(async (tx) => {
      await this.repository.lock(tx, holder.id);
      const factor = await this.repository.findTotp(holder.id, tx);
      if (factor?.enabledAt) throw new AppError('AUTH_MFA_ALREADY_ENABLED');
      if (!factor) throw codeInvalid();
      const now = new Date();
      if (acceptedStep(this.secretOf(holder.id, factor), code, now, null) === null) throw codeInvalid();
      await this.repository.enable(tx, holder.id, now);
      const recoveryCodes = await this.replaceRecoveryCodes(tx, holder.id);
      await this.sessions.revokeOtherSessions(tx, holder.id, keepSessionId, SESSION_REVOKE_REASONS.mfaEnabled);
      return { recoveryCodes };
    });
  }

  /** A current code replaces all ten recovery codes. */
  async regenerateRecoveryCodes(holder: MfaHolder, code: string): Promise<RecoveryCodesDto> {
    return this.unitOfWork.run(async (tx) => {
      await this.requireCode(tx, holder.id, code);
      return { recoveryCodes: await this.replaceRecoveryCodes(tx, holder.id) };
    });
  }

  /** The holder turns it off with their password (401) and a current code (400); they are told by email. */
  async disable(holder: MfaHolder, passwordHash: string | null, password: string, code: string): Promise<void> {
    const passwordMatches = passwordHash ? await this.hasher.verify(passwordHash, password) : await this.hasher.verifyDecoy(password);
    if (!passwordMatches) throw new AppError('AUTH_INVALID_CREDENTIALS');
    await this.unitOfWork.run(async (tx) => {
      await this.requireCode(tx, holder.id, code);
      await this.repository.remove(tx, holder.id);
      await this.recordDisabled(tx, holder, 'self');
    });
  }

  /** An administrator turns it off for another account (the recovery path), ending that account's sessions. */
  async reset(holder: MfaHolder): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      await this.repository.lock(tx, holder.id);
      if (!(await this.repository.remove(tx, holder.id))) throw notEnabled();
      await this.sessions.revokeAllForUser(tx, holder.id, SESSION_REVOKE_REASONS.mfaReset);
      await this.recordDisabled(tx, holder, 'admin');
    });
  }

  /** The password step of an account with two-step sign-in on: a single-use mfaToken for the second step. */
  async openChallenge(holder: MfaHolder, device: DeviceInfo | undefined): Promise<MfaChallengeDto> {
    const now = new Date();
    const mfaToken = newMfaToken(holder.email);
    const expiresAt = new Date(now.getTime() + this.options.tokenTtlMs);
    await this.repository.createChallenge(
      {
        tokenHash: hashMfaToken(mfaToken),
        userId: holder.id,
        deviceId: device?.deviceId ?? null,
        deviceType: device?.deviceType ?? null,
        deviceName: device?.deviceName ?? null,
        expiresAt,
      },
      now,
    );
    return { mfaRequired: true, mfaToken, mfaTokenExpiresAt: expiresAt.toISOString() };
  }

  /** The challenge of an mfaToken while it can still be used: unknown, used, expired and retired ones are null. */
  async liveChallenge(mfaToken: string, now: Date): Promise<MfaChallenge | null> {
    const challenge = await this.repository.findChallenge(hashMfaToken(mfaToken));
    return challenge && challenge.endedAt === null && challenge.expiresAt > now ? challenge : null;
  }

  /**
   * The second step, in the login's transaction: the code proves the holder (a TOTP code, or an
   * unused recovery code, which is spent and announced by email) and the challenge is used up;
   * null when the code is wrong (nothing is written then). 401 AUTH_MFA_TOKEN_INVALID when a
   * concurrent step used the challenge first.
   */
  async completeChallenge(tx: Transaction, challenge: MfaChallenge, holder: MfaHolder, code: string, now: Date): Promise<SecondFactor | null> {
    await this.repository.lock(tx, holder.id);
    const factor = looksLikeTotp(code) ? await this.proveTotp(tx, holder.id, code, now) : await this.proveRecoveryCode(tx, holder, code, now);
    if (factor === null) return null;
    if (!(await this.repository.useChallenge(tx, challenge.tokenHash, now))) throw new AppError('AUTH_MFA_TOKEN_INVALID');
    return factor;
  }

  /** A wrong code of the second step; the fifth retires the challenge. */
  async countWrongCode(challenge: MfaChallenge): Promise<void> {
    await this.repository.countWrongCode(challenge.tokenHash, MFA_TOKEN_WRONG_CODES, new Date());
  }

  /** Forgets second steps that ended or expired before `cutoff` (retention). */
  pruneChallenges(cutoff: Date): Promise<number> {
    return this.repository.deleteChallengesEndedBefore(cutoff);
  }

  private async proveTotp(tx: Transaction, userId: number, code: string, now: Date): Promise<SecondFactor | null> {
    const factor = await this.repository.findTotp(userId, tx);
    if (!factor?.enabledAt) return null;
    const step = acceptedStep(this.secretOf(userId, factor), code, now, factor.lastStep);
    return step !== null && (await this.repository.advanceStep(tx, userId, step)) ? 'totp' : null;
  }

  private async proveRecoveryCode(tx: Transaction, holder: MfaHolder, code: string, now: Date): Promise<SecondFactor | null> {
    const hash = this.crypto.hashRecoveryCode(normalizeRecoveryCode(code));
    if (!(await this.repository.useRecoveryCode(tx, holder.id, hash, now))) return null;
    await this.outbox.record(tx, EVENT_TYPES.recoveryCodeUsed, {
      userId: holder.publicId,
      email: holder.email,
      name: holder.name,
      usedAt: now.toISOString(),
      recoveryCodesLeft: await this.repository.recoveryCodesLeft(holder.id, tx),
    });
    return 'recovery_code';
  }

  /** Under the account's lock: 404 when two-step sign-in is off, 400 unless `code` is a current TOTP code. */
  private async requireCode(tx: Transaction, userId: number, code: string): Promise<void> {
    await this.repository.lock(tx, userId);
    const factor = await this.repository.findTotp(userId, tx);
    if (!factor?.enabledAt) throw notEnabled();
    if (acceptedStep(this.secretOf(userId, factor), code, new Date(), null) === null) throw codeInvalid();
  }

  private async replaceRecoveryCodes(tx: Transaction, userId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.repository.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => this.crypto.hashRecoveryCode(code)),
    );
    return codes;
  }

  private async recordDisabled(tx: Transaction, holder: MfaHolder, by: 'self' | 'admin'): Promise<void> {
    await this.outbox.record(tx, EVENT_TYPES.mfaDisabled, {
      userId: holder.publicId,
      email: holder.email,
      name: holder.name,
      disabledAt: new Date().toISOString(),
      by,
    });
  }

  private secretOf(userId: number, factor: TotpFactor): string {
    return this.crypto.decryptSecret(userId, factor.secret);
  }
}
