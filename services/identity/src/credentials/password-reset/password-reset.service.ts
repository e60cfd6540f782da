import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { EVENT_TYPES, Outbox } from '@school/messaging';
import type { User } from '../../generated/prisma/client.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../../passwords/provider-accounts.repository.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { UsersRepository } from '../../users/users.repository.js';
import { CredentialPurpose } from '../credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../credentials.config.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { CredentialsService, type Redeemed } from '../credentials.service.js';
import type { ForgotPasswordRequest } from '../dto/forgot-password.dto.js';
import type { ResetPasswordCommand } from '../dto/reset-password.dto.js';
import { LINK_PATHS, linkTo } from '../links.js';

/**
 * Forgot and reset (spec §3.1, §4.2 rules 1-7, contract §4). Forgot never tells whether an
 * account exists; reset redeems a reset or an invitation by link token, or a reset by code.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly repository: CredentialsRepository,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly accounts: ProviderAccountsRepository,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {}

  /**
   * For a live account that is not banned: a password_reset credential holding a link token and a
   * code, replacing the person's earlier reset, and the message carrying them (email: link and code
   * in one message; phone: the code by SMS), in one transaction. For anything else: nothing, and the
   * caller answers the same.
   */
  async forgot(request: ForgotPasswordRequest): Promise<void> {
    const user = request.by === 'email' ? await this.users.findLiveByEmail(request.email) : await this.users.findLiveByPhone(request.phone);
    // Drawn and hashed whether or not there is an account, so both answers cost the same work up to here.
    const secrets = this.credentials.prepare({ token: true, otp: true });
    if (!user || user.banned) return;
    const target = request.by === 'email' ? user.email : request.phone;
    await this.repository.transaction(async (tx) => {
      const issued = await this.credentials.issue(tx, user, CredentialPurpose.password_reset, target, secrets);
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
    });
  }

  /**
   * Sets the password from a link token (a reset or an invitation) or a code (a reset only).
   * Unknown, expired, redeemed or retired: 400 AUTH_VERIFICATION_CODE_INVALID. The new password is
   * hashed only once the credential is known good, so wrong codes and tokens cost no argon2 work.
   */
  async reset(command: ResetPasswordCommand): Promise<void> {
    const complete = async (redeemed: Redeemed) => this.completeReset(redeemed, await this.hasher.hash(command.password), command.branch);
    const done =
      command.branch === 'token'
        ? await this.credentials.redeemByToken(command.token, 'resetByToken', complete)
        : await this.credentials.redeemByOtp((await this.accountOf(command.email, command.phone))?.id, command.otp, 'resetByOtp', complete);
    if (!done) throw new AppError('AUTH_VERIFICATION_CODE_INVALID');
  }

  /** Whose code it is: the account of the email, or of the phone; both sent must name the same account. */
  private async accountOf(email: string | undefined, phone: string | undefined): Promise<User | null> {
    const user = email !== undefined ? await this.users.findLiveByEmail(email) : await this.users.findLiveByPhone(phone!);
    if (user && email !== undefined && phone !== undefined && user.phone !== phone) return null;
    return user;
  }

  /**
   * In the redeeming transaction (the credential is redeemed and the other account-entry one
   * retired already): the password, the proof of the channel the secret travelled through (a link
   * token or a code sent by email proves the mailbox; a code sent by SMS to the account's phone
   * proves the phone), every session revoked, and the password-changed email recorded. The email
   * is delivered asynchronously from the outbox, so a failed delivery can never undo the reset.
   */
  private async completeReset({ tx, user, credential, now }: Redeemed, passwordHash: string, branch: ResetPasswordCommand['branch']): Promise<void> {
    await this.accounts.setPasswordHash(user.id, passwordHash, tx);
    // Links are only ever emailed; a code went where the forgot request sent it (credential.target).
    const sentByEmail = branch === 'token' || credential.target === user.email;
    const sentBySms = !sentByEmail && user.phone !== null && credential.target === user.phone;
    if (sentByEmail && user.emailVerifiedAt === null) await this.users.update(user.id, { emailVerifiedAt: now }, tx);
    if (sentBySms && user.phoneVerifiedAt === null) await this.users.update(user.id, { phoneVerifiedAt: now }, tx);
    await this.sessions.revokeAllForUser(user.id, SESSION_REVOKE_REASONS.passwordReset, tx);
    await this.outbox.record(tx, EVENT_TYPES.passwordChanged, {
      userId: user.publicId,
      email: user.email,
      name: user.name,
      changedAt: now.toISOString(),
    });
  }
}
