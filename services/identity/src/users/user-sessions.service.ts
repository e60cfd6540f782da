import { Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import type { User } from '../generated/prisma/client.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { type SessionView, toSessionView } from '../sessions/session-view.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { userTarget } from '../accounts/user-audit.js';
import { UsersRepository } from '../accounts/users.repository.js';

/**
 * Contract §10, an administrator and any account's sessions. An unknown or soft-deleted user is
 * 404 USER_NOT_FOUND; a banned one has no live sessions.
 */
@Injectable()
export class UserSessionsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  async list(publicId: string): Promise<SessionView[]> {
    const user = await this.liveUser(publicId);
    if (user.banned) return [];
    return (await this.sessions.listLive(user.id)).map(toSessionView);
  }

  /** Ends them all, the caller's own included when they name their own account. */
  async endAll(publicId: string): Promise<{ ended: number }> {
    const user = await this.liveUser(publicId);
    const ended = await this.unitOfWork.run(async (tx) => {
      const count = await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.endedByAdmin);
      await this.audit.record(tx, { action: 'user.sessions_end', target: userTarget(publicId) });
      return count;
    });
    return { ended };
  }

  private async liveUser(publicId: string): Promise<User> {
    const user = await this.users.findLiveByPublicId(publicId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return user;
  }
}
