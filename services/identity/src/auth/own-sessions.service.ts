import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { type Transaction, UnitOfWork } from '@school/service';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { type OwnSessionView, toOwnSessionView } from '../sessions/session-view.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { userTarget } from '../accounts/user-audit.js';
import { isAdminSurfaceAccount } from '../sessions/surface.js';
import { UsersRepository } from '../accounts/users.repository.js';

/**
 * Contract §10, a person's own sessions: list them, end one (the current one is a logout), end
 * every other. Another person's session answers exactly as an unknown one: 404 SESSION_NOT_FOUND.
 */
@Injectable()
export class OwnSessionsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  async list(principal: Principal): Promise<OwnSessionView[]> {
    const userId = await this.callerId(principal);
    return (await this.sessions.listLive(userId)).map((session) => toOwnSessionView(session, principal.sessionId));
  }

  async end(principal: Principal, sessionId: string): Promise<void> {
    const userId = await this.callerId(principal);
    const current = sessionId.toLowerCase() === principal.sessionId;
    const reason = current ? SESSION_REVOKE_REASONS.logout : SESSION_REVOKE_REASONS.endedByUser;
    await this.unitOfWork.run(async (tx) => {
      await this.sessions.endOfUser(tx, userId, sessionId, reason);
      await this.audited(tx, principal, current ? 'auth.logout' : 'user.sessions_end');
    });
  }

  async endOthers(principal: Principal): Promise<{ ended: number }> {
    const userId = await this.callerId(principal);
    const ended = await this.unitOfWork.run(async (tx) => {
      const count = await this.sessions.revokeOtherSessions(tx, userId, principal.sessionId, SESSION_REVOKE_REASONS.endedByUser);
      await this.audited(tx, principal, 'user.sessions_end');
      return count;
    });
    return { ended };
  }

  /** Ending one's own sessions on the administrator surface is audited (contract §13); a customer's is not. */
  private async audited(tx: Transaction, principal: Principal, action: 'auth.logout' | 'user.sessions_end'): Promise<void> {
    if (isAdminSurfaceAccount(principal)) await this.audit.record(tx, { action, target: userTarget(principal.userId) });
  }

  /** The verified caller's live account; a token of a since-deleted user is no longer valid. */
  private async callerId(principal: Principal): Promise<number> {
    const user = await this.users.findLiveByPublicId(principal.userId);
    if (!user) throw new AppError('AUTH_UNAUTHENTICATED');
    return user.id;
  }
}
