import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { LoginBackoffService } from '../../login-backoff/login-backoff.service.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../../passwords/provider-accounts.repository.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { UsersRepository } from '../../users/users.repository.js';
import { CredentialPurpose } from '../credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../credentials.config.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { CredentialsService, type PreparedRedemptionEffects, type Redeemed } from '../credentials.service.js';
import type { ForgotPasswordRequest } from '../dto/forgot-password.dto.js';
import type { ResetPasswordCommand } from '../dto/reset-password.dto.js';
import { LINK_PATHS, linkTo } from '../links.js';
import { MessageRequestsRepository } from '../message-requests/message-requests.repository.js';

/**
 * Forgot and reset (spec §3.1, §4.2 rules 1-7, contract §4). Forgot never tells whether an
 * account exists, by its answer or by its time: the route only takes the request, served later off
 * the request's path. Reset redeems a reset or an invitation by link token, or a reset by code.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly repository: CredentialsRepository,
    private readonly requests: MessageRequestsRepository,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly accounts: ProviderAccountsRepository,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
    private readonly backoff: LoginBackoffService,
  ) {}

  /**
   * Takes the request and nothing more: the same single write whether or not an account matches,
   * so the answer takes as long either way (contract §4). MessageRequestsWorker serves it later
   * with sendReset.
   */
  async forgot(request: ForgotPasswordRequest): Promise<void> {
    await this.requests.add({ purpose: CredentialPurpose.password_reset, ...request });
  }

  /**
   * Serves a forgot request, in the worker's transaction. For a live account that is not banned,
   * found by its email or by its verified phone (contract §4: never an unverified one), and not yet
   * at the hourly message cap: a password_reset credential holding a link token and a code,
   * replacing the person's earlier reset, and the message carrying them (email: link and code in one
   * message; phone: the code by SMS). For anything else: nothing.
   */
  async sendReset(tx: Transaction, request: ForgotPasswordRequest): Promise<void> {
    const user = request.by === 'email' ? await this.users.findLiveByEmail(request.email, tx) : await this.users.findLiveByVerifiedPhone(request.phone, tx);
    if (!user || user.banned) return;
    const target = request.by === 'email' ? user.email : request.phone;
    const issued = await this.credentials.issueMessage(tx, user, CredentialPurpose.password_reset, target, this.credentials.prepare({ token: true, otp: true }));
    if (!issued) return;
    await this.outbox.record(tx, EVENT_TYPES.passwordResetRequested, {
      userId: user.publicId,
      name: user.name,
      otp: issued.otp!,
      expiresAt: issued.expiresAt.toISOString(),
      delivery:
        request.by === 'email'
          ? { channel: 'email', email: user.email, resetUrl: linkTo(this.options.publicBaseUrl, LINK_PATHS.passwordReset, issued.token!) }
          : { channel: 'sms', phone: target },
    });
  }

  /**
   * Sets the password from a link token (a reset or an invitation) or a code (a reset only).
   * Unknown, expired, redeemed or retired: 400 AUTH_VERIFICATION_CODE_INVALID. The new password is
   * hashed once the credential is known good (wrong codes and tokens cost no argon2 work) and before
   * the redeeming transaction opens (argon2id holds neither the person's lock nor a pooled
   * connection); a full hashing queue (503) leaves the credential live and the password unchanged.
   */
  async reset(command: ResetPasswordCommand): Promise<void> {
    const complete: PreparedRedemptionEffects<string> = {
      prepare: () => this.hasher.hash(command.password),
      apply: (redeemed, passwordHash) => this.completeReset(redeemed, passwordHash, command.branch),
    };
    const done =
      command.branch === 'token'
        ? await this.credentials.redeemByToken(command.token, 'resetByToken', complete)
        : await this.credentials.redeemByOtp(await this.accountOf(command.email, command.phone), command.otp, 'resetByOtp', complete);
    if (!done) throw new AppError('AUTH_VERIFICATION_CODE_INVALID');
  }

  /**
   * Whose code it is: the account of the email, or of the verified phone (contract §4); both sent
   * must name the same account, its phone verified. Nobody otherwise, and the code is then refused
   * after the same work as a wrong one.
   */
  private async accountOf(email: string | undefined, phone: string | undefined): Promise<number | undefined> {
    const account = email !== undefined ? await this.repository.accountByEmail(email) : await this.repository.accountByVerifiedPhone(phone!);
    if (account.matches !== 1 || account.id === null) return undefined;
    if (email !== undefined && phone !== undefined && (account.phone !== phone || !account.phoneVerified)) return undefined;
    return account.id;
  }

  /**
   * In the redeeming transaction (the credential is redeemed and the other account-entry one
   * retired already): the password, the proof of the channel the secret travelled through (a link
   * token or a code sent by email proves the mailbox; a code sent by SMS to the account's phone
   * proves the phone), every session revoked, and the password-changed email recorded. The email
   * is delivered asynchronously from the outbox, so a failed delivery can never undo the reset.
   */
  private async completeReset({ tx, user, credential, now }: Redeemed, passwordHash: string, branch: ResetPasswordCommand['branch']): Promise<void> {
    await this.accounts.setPasswordHash(tx, user.id, passwordHash);
    // Links are only ever emailed; a code went where the forgot request sent it (credential.target).
    const sentByEmail = branch === 'token' || credential.target === user.email;
    const sentBySms = !sentByEmail && user.phone !== null && credential.target === user.phone;
    if (sentByEmail && user.emailVerifiedAt === null) await this.users.update(user.id, { emailVerifiedAt: now }, tx);
    if (sentBySms && user.phoneVerifiedAt === null) await this.users.update(user.id, { phoneVerifiedAt: now }, tx);
    await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.passwordReset);
    await this.users.trustNextLogin(tx, user.id);
    await this.backoff.succeeded(user.email, tx);
    await this.outbox.record(tx, EVENT_TYPES.passwordChanged, {
      userId: user.publicId,
      email: user.email,
      name: user.name,
      changedAt: now.toISOString(),
    });
  }
}
