import { Injectable } from '@nestjs/common';
import { type Permission, permissionsOf, type Principal, type Role } from '@school/auth';
import { AppError } from '@school/http';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { LoginBackoffService } from '../login-backoff/login-backoff.service.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../passwords/provider-accounts.repository.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { type ClientInfo, type IssuedTokens, SessionsService } from '../sessions/sessions.service.js';
import { type Surface, surfaceAdmits } from '../sessions/surface.js';
import { type Profile, toProfile } from '../users/profile.js';
import { type LoginAccount, UsersRepository } from '../users/users.repository.js';
import type { LoginBody } from './dto/login.dto.js';
import type { SetPasswordBody } from './dto/set-password.dto.js';
import { NewDeviceAlert } from './new-device-alert.js';

/** Login and refresh answer (contract §4). */
export interface TokenResponse extends IssuedTokens {
  user: Profile;
}

export interface PermissionsView {
  role: Role;
  permissions: Permission[];
}

/** The caller-facing rules of authentication, shared by the admin and the mobile surface. */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly providerAccounts: ProviderAccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly newDeviceAlert: NewDeviceAlert,
    private readonly backoff: LoginBackoffService,
  ) {}

  /**
   * Email and password login on one surface. Unknown email, soft-deleted account, no password,
   * wrong password and a role the surface does not admit all answer the same 401 after the same
   * argon2id work; a banned account is told so only after its correct password. Each attempt
   * first passes the email's back-off (contract §9), which a correct password clears.
   */
  async login(surface: Surface, body: LoginBody, client: ClientInfo): Promise<TokenResponse> {
    await this.backoff.admit(body.email);
    const account = await this.users.findLoginAccount(body.email);
    const caller = client.ip ?? undefined;
    const passwordMatches = account?.passwordHash ? await this.hasher.verify(account.passwordHash, body.password, caller) : await this.hasher.verifyDecoy(body.password, caller);
    if (!account || !passwordMatches || !surfaceAdmits(surface, account.user.role)) throw new AppError('AUTH_INVALID_CREDENTIALS');
    await this.backoff.succeeded(body.email);
    if (account.user.banned) throw new AppError('AUTH_ACCOUNT_BANNED');
    const tokens = await this.unitOfWork.run(async (tx) => {
      const issued = await this.sessions.start(account.user, surface, body.deviceInfo, client, tx);
      await this.newDeviceAlert.onLogin(tx, account.user, body.deviceInfo, new Date());
      return issued;
    });
    return { ...tokens, user: toProfile(account.user, true) };
  }

  async refresh(surface: Surface, refreshToken: string): Promise<TokenResponse> {
    const { tokens, user, hasPassword } = await this.sessions.refresh(refreshToken, surface);
    return { ...tokens, user: toProfile(user, hasPassword) };
  }

  async logout(principal: Principal): Promise<void> {
    await this.sessions.end(principal.sessionId, SESSION_REVOKE_REASONS.logout);
  }

  async me(principal: Principal): Promise<Profile> {
    return profileOf(await this.callerAccount(principal));
  }

  permissions(principal: Principal): PermissionsView {
    return { role: principal.role, permissions: [...permissionsOf(principal.role)] };
  }

  /**
   * Spec §4.2 set password: currentPassword is required and checked when a password exists.
   * A change ends the caller's other sessions (this one stays) and tells the holder by email.
   */
  async setPassword(principal: Principal, body: SetPasswordBody): Promise<void> {
    const { user, passwordHash } = await this.callerAccount(principal);
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
    });
  }

  /** The verified caller's live account; a token of a since-deleted user is no longer valid. */
  private async callerAccount(principal: Principal): Promise<LoginAccount> {
    const account = await this.users.findCallerAccount(principal.userId);
    if (!account) throw new AppError('AUTH_UNAUTHENTICATED');
    return account;
  }
}

function profileOf(account: LoginAccount): Profile {
  return toProfile(account.user, account.passwordHash !== null);
}
