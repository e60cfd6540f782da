import { Injectable } from '@nestjs/common';
import { permissionsOf, type Principal } from '@school/auth';
import type { PermissionsDto } from '@school/contracts';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import type { Profile } from '../accounts/profile.js';
import { Profiles } from '../accounts/profiles.js';
import { userTarget } from '../accounts/user-audit.js';
import { isAdminSurfaceAccount } from '../sessions/surface.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { SessionsService } from '../sessions/sessions.service.js';

export type PermissionsView = PermissionsDto;

/** The signed-in caller's requests that touch one context each: logout, `me`, permissions. */
@Injectable()
export class AuthService {
  constructor(
    private readonly profiles: Profiles,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  /** An administrator-surface account's logout is audited (contract §13), in the transaction that ends the session. */
  async logout(principal: Principal): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      await this.sessions.end(principal.sessionId, SESSION_REVOKE_REASONS.logout, tx);
      if (isAdminSurfaceAccount(principal)) await this.audit.record(tx, { action: 'auth.logout', target: userTarget(principal.userId) });
    });
  }

  /** The verified caller's live account; a token of a since-deleted user is no longer valid. */
  async me(principal: Principal): Promise<Profile> {
    const profile = await this.profiles.ofCaller(principal.userId);
    if (!profile) throw new AppError('AUTH_UNAUTHENTICATED');
    return profile;
  }

  permissions(principal: Principal): PermissionsView {
    return { role: principal.role, permissions: [...permissionsOf(principal.role)] };
  }
}
