import { Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { AuditRecorder, Outbox, secretChanged } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { ProviderAccountsRepository } from '../../accounts/provider-accounts.repository.js';
import { userActor, userTarget } from '../../accounts/user-audit.js';
import { isAdminSurfaceAccount } from '../../sessions/surface.js';
import { AccountMatchesRepository } from '../../accounts/account-matches.repository.js';
import { UsersRepository } from '../../accounts/users.repository.js';
import { CredentialsService, type PreparedRedemptionEffects, type Redeemed } from '../../credentials/credentials.service.js';
import type { ResetPasswordBody } from '@school/contracts';
import { refuseUnsafeNewPassword } from '../../passwords/password-policy.js';
import { LoginBackoffService } from '../../login-backoff/login-backoff.service.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';

/**
 * Reset (spec §4.2 rules 4-7, contract §4): redeems a reset or an invitation by link token, or a
 * reset by code, and in the redeeming transaction sets the password, proves the channel, ends every
 * session, clears the login back-off and tells the holder.
 */
@Injectable()
export class ResetPassword {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly users: UsersRepository,
    private readonly matches: AccountMatchesRepository,
    private readonly providerAccounts: ProviderAccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    private readonly backoff: LoginBackoffService,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * Sets the password from a link token (a reset or an invitation) or a code (a reset only).
   * Unknown, expired, redeemed or retired: 400 AUTH_VERIFICATION_CODE_INVALID. The new password is
   * hashed once the credential is known good (wrong codes and tokens cost no argon2 work) and before
   * the redeeming transaction opens (argon2id holds neither the person's lock nor a pooled
   * connection); a full hashing queue (503) leaves the credential live and the password unchanged.
   * A breached or guessable password is refused before any of this (400 naming password, after
   * the body's branch and field rules of the manifest).
   */
  async execute(command: ResetPasswordBody): Promise<void> {
    refuseUnsafeNewPassword(command.password, 'password');
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
    const account = email !== undefined ? await this.matches.accountByEmail(email) : await this.matches.accountByVerifiedPhone(phone!);
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
  private async completeReset({ tx, user, credential, now }: Redeemed, passwordHash: string, branch: ResetPasswordBody['branch']): Promise<void> {
    await this.providerAccounts.setPasswordHash(tx, user.id, passwordHash);
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
    if (isAdminSurfaceAccount(user)) {
      await this.audit.record(tx, { action: 'auth.password_reset', target: userTarget(user.publicId), actor: userActor(user), changes: { password: secretChanged() } });
    }
  }
}
