import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { userNotFound } from '../../accounts/account-errors.js';
import { type AccountControl, isSelfAction } from '../../accounts/account-rules.js';
import { AdminsRepository } from '../../accounts/admins.repository.js';
import { userTarget } from '../../accounts/user-audit.js';
import { UsersRepository } from '../../accounts/users.repository.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { refuseLeavingNoActiveAdmin } from '../../accounts/last-admin.js';

/**
 * Soft delete (contract §6): the account becomes unknown everywhere, its sessions end at once and
 * its live reset and invitation credentials are retired. An admin may not delete themselves, nor
 * the last active admin.
 */
@Injectable()
export class DeleteUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly admins: AdminsRepository,
    private readonly sessions: SessionsService,
    private readonly credentials: CredentialsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(actor: Principal, publicId: string): Promise<void> {
    const control: AccountControl = { deleted: true };
    if (isSelfAction(actor.userId, publicId, control)) throw new AppError('USER_SELF_ACTION');
    await this.unitOfWork.run(async (tx) => {
      await this.admins.lockActiveAdmins(tx);
      const user = await this.users.findLiveByPublicId(publicId, tx);
      if (!user) throw userNotFound();
      await refuseLeavingNoActiveAdmin(this.admins, user, control, tx);
      await this.credentials.retireOnAccountClosed(tx, user.id);
      const deletedAt = await this.users.softDelete(user.id, tx);
      await this.audit.record(tx, { action: 'user.delete', target: userTarget(publicId), changes: { deletedAt: { from: null, to: deletedAt.toISOString() } } });
      await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.deleted);
    });
  }
}
