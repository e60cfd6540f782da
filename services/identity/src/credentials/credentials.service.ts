import { Inject, Injectable } from '@nestjs/common';
import { type Transaction, UnitOfWork } from '@school/service';
import { rateLimited } from '@school/http';
import type { User, VerificationCredential } from '../generated/prisma/client.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { Clock } from './clock.js';
import { hashLinkToken, newLinkToken, newOtp, OtpHasher } from './credential-secrets.js';
import {
  afterFailedAttempt,
  canRedeem,
  CredentialPurpose,
  expiryOf,
  MESSAGE_CAP,
  mayMessage,
  messageWindowStart,
  type Redemption,
  REDEMPTIONS,
  retiredOnAccountClosed,
  retiredOnIssue,
  retiredOnRedeem,
  stateOf,
} from './credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from './credentials.config.js';
import { CredentialsRepository, NOBODY } from './credentials.repository.js';
import { accountWindowStart, numberWindowStart, phoneRequestWait } from './phone-request-limits.js';

/** The secrets of a new credential, in clear and hashed; the clear ones live only until they are put in an outbox event. */
export interface PreparedSecrets {
  token: string | undefined;
  otp: string | undefined;
  tokenHash: string | undefined;
  otpHash: string | undefined;
}

export interface IssuedCredential {
  token: string | undefined;
  otp: string | undefined;
  expiresAt: Date;
}

/** What the effects of a redemption get to work with, inside the redeeming transaction. */
export interface Redeemed {
  tx: Transaction;
  user: User;
  credential: VerificationCredential;
  now: Date;
}

export type RedemptionEffects = (redeemed: Redeemed) => Promise<void>;

/**
 * Effects that need slow work first (a password hash): `prepare` runs once the secret is known
 * good and before the redeeming transaction opens, so the work holds no lock and no pooled
 * connection, and a secret refused costs none of it; `apply` then runs in the transaction. Should
 * `prepare` fail, nothing was written.
 */
export interface PreparedRedemptionEffects<Prepared> {
  prepare(): Promise<Prepared>;
  apply(redeemed: Redeemed, prepared: Prepared): Promise<void>;
}

type Effects<Prepared> = RedemptionEffects | PreparedRedemptionEffects<Prepared>;

/**
 * Issues and redeems verification credentials by the state machine of credential-state.ts. Every
 * change to a person's credentials runs in a transaction holding that person's lock; a redemption
 * runs its effects (password, verification flags, events) in the same transaction, so either all
 * of it happens or none. Failed code attempts are committed even though the request fails.
 */
@Injectable()
export class CredentialsService {
  private readonly otpHasher: OtpHasher;

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {
    this.otpHasher = new OtpHasher(options.otpSecret);
  }

  /** Forgets credentials spent (expired, redeemed or retired) before `cutoff`: no rule reads them any more. */
  prune(cutoff: Date): Promise<number> {
    return this.repository.deleteSpentBefore(cutoff);
  }

  /** Draws and hashes the secrets of a credential (a link token, a code, or both), before any transaction. */
  prepare(secrets: { token: boolean; otp: boolean }): PreparedSecrets {
    const token = secrets.token ? newLinkToken() : undefined;
    const otp = secrets.otp ? newOtp() : undefined;
    return {
      token,
      otp,
      tokenHash: token === undefined ? undefined : hashLinkToken(token),
      otpHash: otp === undefined ? undefined : this.otpHasher.hash(otp),
    };
  }

  /**
   * A new credential of `purpose` for `user` holding `secrets`, sent to `target` (an email address
   * or an E.164 phone), replacing the person's earlier live ones that retiredOnIssue names. Runs in
   * the caller's transaction.
   */
  async issue(tx: Transaction, user: Pick<User, 'id'>, purpose: CredentialPurpose, target: string, secrets: PreparedSecrets): Promise<IssuedCredential> {
    await this.repository.lockPerson(tx, user.id);
    return this.issueLocked(tx, user, purpose, target, secrets, this.clock.now());
  }

  /**
   * issue() for a message a public route asked for (forgot, email-verification resend): null, and
   * nothing issued, once the person was sent MESSAGE_CAP.messages of them within the hour. The count
   * and the issue run under the person's lock, so parallel requests on any replica cannot overshoot.
   */
  async issueMessage(tx: Transaction, user: Pick<User, 'id'>, purpose: CredentialPurpose, target: string, secrets: PreparedSecrets): Promise<IssuedCredential | null> {
    await this.repository.lockPerson(tx, user.id);
    const now = this.clock.now();
    const sent = await this.repository.countIssuedSince(tx, user.id, MESSAGE_CAP.purposes, messageWindowStart(now));
    if (!mayMessage(purpose, sent)) return null;
    return this.issueLocked(tx, user, purpose, target, secrets, now);
  }

  /**
   * issue() for a phone verification code, under contract §9's limits (PHONE_REQUEST_LIMITS):
   * 429 RATE_LIMITED with Retry-After beyond them. Counted under the person's and the number's
   * locks, so parallel requests on any replica cannot overshoot.
   */
  async issuePhoneCode(tx: Transaction, user: Pick<User, 'id'>, phone: string, secrets: PreparedSecrets): Promise<IssuedCredential> {
    await this.repository.lockPerson(tx, user.id);
    await this.repository.lockTarget(tx, phone);
    const now = this.clock.now();
    const purpose = CredentialPurpose.phone_verification;
    const wait = phoneRequestWait(
      await this.repository.issuedTimesSince(tx, purpose, { userId: user.id }, accountWindowStart(now)),
      await this.repository.issuedTimesSince(tx, purpose, { target: phone }, numberWindowStart(now)),
      now,
    );
    if (wait > 0) throw rateLimited(wait);
    return this.issueLocked(tx, user, purpose, phone, secrets, now);
  }

  private async issueLocked(tx: Transaction, user: Pick<User, 'id'>, purpose: CredentialPurpose, target: string, secrets: PreparedSecrets, now: Date): Promise<IssuedCredential> {
    await this.repository.retireUnfinished(tx, user.id, retiredOnIssue(purpose), now);
    const expiresAt = expiryOf(purpose, now, this.options.lifetimes);
    await this.repository.create(tx, {
      userId: user.id,
      purpose,
      target,
      createdAt: now,
      expiresAt,
      ...(secrets.tokenHash !== undefined && { tokenHash: secrets.tokenHash }),
      ...(secrets.otpHash !== undefined && { otpHash: secrets.otpHash }),
    });
    return { token: secrets.token, otp: secrets.otp, expiresAt };
  }

  /**
   * In the caller's transaction, when the account is banned or soft-deleted: its live resets and
   * invitations are retired for good. Takes the person's lock first, so a redemption under way
   * either finished before or finds the credential retired.
   */
  async retireOnAccountClosed(tx: Transaction, userId: number): Promise<void> {
    await this.repository.lockPerson(tx, userId);
    await this.repository.retireUnfinished(tx, userId, retiredOnAccountClosed(), this.clock.now());
  }

  /**
   * Redeems the credential behind a link token; false when it cannot (unknown, wrong purpose, not
   * live, account gone). Checked once before any preparation and again under the person's lock.
   */
  redeemByToken(token: string, redemption: Redemption, effects: RedemptionEffects): Promise<boolean>;
  redeemByToken<Prepared>(token: string, redemption: Redemption, effects: PreparedRedemptionEffects<Prepared>): Promise<boolean>;
  async redeemByToken<Prepared>(token: string, redemption: Redemption, effects: Effects<Prepared>): Promise<boolean> {
    const found = await this.repository.findByTokenHash(hashLinkToken(token));
    if (!found || !canRedeem(found, redemption, this.clock.now())) return false;
    return this.redeemFound(found, redemption, effects);
  }

  /**
   * Checks a code against the person's live credential of the redemption's purpose (the newest;
   * issuing retires the earlier ones). A wrong code, or a right code for another target, counts an
   * attempt against that credential; the fifth retires it, link included. A right one is redeemed
   * in a second transaction, after any preparation, if it is still live then.
   *
   * Contract §4: the answer takes as long whether or not the account exists or holds a live code.
   * `userId` undefined (no such account) takes the same steps against a person no row is: a
   * transaction, a lock, the lookup, the HMAC and a commit like that of a counted attempt.
   */
  redeemByOtp(userId: number | undefined, otp: string, redemption: Redemption, effects: RedemptionEffects, target?: string): Promise<boolean>;
  redeemByOtp<Prepared>(userId: number | undefined, otp: string, redemption: Redemption, effects: PreparedRedemptionEffects<Prepared>, target?: string): Promise<boolean>;
  async redeemByOtp<Prepared>(userId: number | undefined, otp: string, redemption: Redemption, effects: Effects<Prepared>, target?: string): Promise<boolean> {
    const matched = await this.unitOfWork.run((tx) => this.matchOtp(tx, userId, otp, redemption, target));
    return matched !== null && this.redeemFound(matched, redemption, effects);
  }

  /** The credential the code is for, or null after counting the failed attempt (committed, though the request fails). */
  private async matchOtp(tx: Transaction, userId: number | undefined, otp: string, redemption: Redemption, target: string | undefined): Promise<VerificationCredential | null> {
    if (userId === undefined) await this.repository.lockNobody(tx);
    else await this.repository.lockPerson(tx, userId);
    const now = this.clock.now();
    const candidates = await this.repository.unfinishedOf(userId ?? NOBODY, REDEMPTIONS[redemption].purposes, tx);
    const credential = candidates.find((candidate) => stateOf(candidate, now) === 'live');
    if (!credential) {
      this.otpHasher.matches(otp, null);
      await this.repository.recordNoAttempt(tx);
      return null;
    }
    const codeMatches = this.otpHasher.matches(otp, credential.otpHash);
    if (!codeMatches || (target !== undefined && credential.target !== target)) {
      const { attempts, retire } = afterFailedAttempt(credential.attempts);
      await this.repository.recordFailedAttempt(tx, credential.id, attempts, retire, now);
      return null;
    }
    return credential;
  }

  /** A credential whose secret was presented right: the preparation, then the redemption under the person's lock. */
  private async redeemFound<Prepared>(found: VerificationCredential, redemption: Redemption, effects: Effects<Prepared>): Promise<boolean> {
    const apply: RedemptionEffects =
      typeof effects === 'function' ? effects : await effects.prepare().then((prepared) => (redeemed: Redeemed) => effects.apply(redeemed, prepared));
    return this.unitOfWork.run(async (tx) => {
      await this.repository.lockPerson(tx, found.userId);
      const credential = await this.repository.findById(found.id, tx);
      return credential !== null && this.redeem(tx, credential, redemption, apply);
    });
  }

  /** With the person's lock held: the state check, the redemption, what it retires, then the effects. */
  private async redeem(tx: Transaction, credential: VerificationCredential, redemption: Redemption, effects: RedemptionEffects): Promise<boolean> {
    const now = this.clock.now();
    if (!canRedeem(credential, redemption, now)) return false;
    const user = await this.users.findLiveById(credential.userId, tx);
    if (!user) return false;
    if (!(await this.repository.redeem(tx, credential.id, now))) return false;
    await this.repository.retireUnfinished(tx, user.id, retiredOnRedeem(credential.purpose), now);
    await effects({ tx, user, credential, now });
    return true;
  }
}
