import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { AuditRecorder, Outbox, secretChanged } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { ProviderAccountsRepository } from '../../accounts/provider-accounts.repository.js';
import { userTarget } from '../../accounts/user-audit.js';
import { isAdminSurfaceAccount } from '../../sessions/surface.js';
import { LoginAccountsRepository } from '../../accounts/login-accounts.repository.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { refuseUnsafeNewPassword } from '../../passwords/password-policy.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import type { SetPasswordBody } from '@school/contracts';

/**
 * Spec §4.2 set password: a breached or guessable new password is refused first (400 naming
 * newPassword, as the body's rules are); then currentPassword is required and checked when a password exists. A
 * change ends the caller's other sessions (this one stays) and tells the holder by email, in the
 * transaction that stores the new hash.
 */
@Injectable()
export class SetPassword {
  constructor(
    private readonly accounts: LoginAccountsRepository,
    private readonly providerAccounts: ProviderAccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(principal: Principal, body: SetPasswordBody): Promise<void> {
    refuseUnsafeNewPassword(body.newPassword, 'newPassword');
    // The verified caller's live account; a token of a since-deleted user is no longer valid.
    const account = await this.accounts.findCallerAccount(principal.userId);
    if (!account) throw new AppError('AUTH_UNAUTHENTICATED');
    const { user, passwordHash } = account;
    if (passwordHash !== null) {
      if (body.currentPassword === undefined) throw new AppError('AUTH_CURRENT_PASSWORD_REQUIRED');
      if (!(await this.hasher.verify(passwordHash, body.currentPassword))) throw new AppError('AUTH_INVALID_CREDENTIALS');
    }
    const newHash = await this.hasher.hash(body.newPassword);
    await this.unitOfWork.run(async (tx) => {
      await this.providerAccounts.setPasswordHash(tx, user.id, newHash);
      await this.sessions.revokeOtherSessions(tx, user.id, principal.sessionId, SESSION_REVOKE_REASONS.passwordChanged);
      await this.outbox.record(tx, EVENT_TYPES.passwordChanged, {
        userId: user.publicId,
        email: user.email,
        name: user.name,
        changedAt: new Date().toISOString(),
      });
      if (isAdminSurfaceAccount(user)) await this.audit.record(tx, { action: 'auth.password_set', target: userTarget(user.publicId), changes: { password: secretChanged() } });
    });
  }
}
