import { Injectable } from '@nestjs/common';
import { profileOf } from '../../accounts/profiles.js';
import { type LoginAccount, LoginAccountsRepository } from '../../accounts/login-accounts.repository.js';
import { SessionsService, type SessionSubject } from '../../sessions/sessions.service.js';
import { type Surface, surfaceAdmits } from '../../sessions/surface.js';
import type { TokenResponse } from '../token-response.js';

/**
 * Refresh (contract §4): sessions rotate the token by their rules (reuse, grace window); the
 * session's user must still be live, not banned, and of a role the surface admits, or the answer
 * is the same 401 AUTH_REFRESH_TOKEN_INVALID. The answer carries the profile as of the refresh.
 */
@Injectable()
export class RefreshTokens {
  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: LoginAccountsRepository,
  ) {}

  async execute(surface: Surface, refreshToken: string): Promise<TokenResponse> {
    const { tokens, holder } = await this.sessions.refresh(refreshToken, surface, (userId) => this.holderOf(userId, surface));
    return { ...tokens, user: profileOf(holder.account) };
  }

  private async holderOf(userId: number, surface: Surface): Promise<(SessionSubject & { account: LoginAccount }) | null> {
    const account = await this.accounts.findLiveAccountById(userId);
    if (!account || account.user.banned || !surfaceAdmits(surface, account.user.role)) return null;
    const { id, publicId, role } = account.user;
    return { id, publicId, role, account };
  }
}
