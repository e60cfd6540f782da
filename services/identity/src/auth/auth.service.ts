import { Injectable } from '@nestjs/common';
import { type Permission, permissionsOf, type Principal, type Role } from '@school/auth';
import { AppError } from '@school/http';
import type { Profile } from '../accounts/profile.js';
import { Profiles } from '../accounts/profiles.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { SessionsService } from '../sessions/sessions.service.js';

export interface PermissionsView {
  role: Role;
  permissions: Permission[];
}

/** The signed-in caller's requests that touch one context each: logout, `me`, permissions. */
@Injectable()
export class AuthService {
  constructor(
    private readonly profiles: Profiles,
    private readonly sessions: SessionsService,
  ) {}

  async logout(principal: Principal): Promise<void> {
    await this.sessions.end(principal.sessionId, SESSION_REVOKE_REASONS.logout);
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
