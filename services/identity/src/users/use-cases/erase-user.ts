import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { EVENT_TYPES } from '@school/contracts';
import { AppError, emailDigest } from '@school/http';
import { AuditRecorder, Outbox } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { userNotFound } from '../../accounts/account-errors.js';
import { type AccountControl, isSelfAction } from '../../accounts/account-rules.js';
import { refuseLeavingNoActiveAdmin } from '../../accounts/last-admin.js';
import { userTarget } from '../../accounts/user-audit.js';
import { AdminsRepository } from '../../accounts/admins.repository.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { ErasureRepository } from '../erasure.repository.js';

/** An erasure takes the account out of the active admins as a delete does. */
const ERASURE: AccountControl = { deleted: true };

/**
 * Erasure (contract §11), identity's step of the saga, in ONE transaction: every session revoked
 * (the revocation store written before the commit, as for a soft delete), the live reset and
 * invitation credentials retired, the account's rows deleted with every outbox row that names it,
 * and two events recorded: `identity.user_erased` for the services that keep data of the account
 * (feedback, media, reference-data follow through their inboxes), and the goodbye email to the
 * address the account had, which the relay publishes only once all this is committed.
 * Live or soft-deleted accounts alike; an admin may not erase their own account, nor the last
 * active admin. Nothing of the account is logged here.
 */
@Injectable()
export class EraseUser {
  constructor(
    private readonly admins: AdminsRepository,
    private readonly erasure: ErasureRepository,
    private readonly sessions: SessionsService,
    private readonly credentials: CredentialsService,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(actor: Principal, publicId: string): Promise<void> {
    if (isSelfAction(actor.userId, publicId, ERASURE)) throw new AppError('USER_SELF_ACTION');
    await this.unitOfWork.run(async (tx) => {
      await this.admins.lockActiveAdmins(tx);
      const found = await this.erasure.find(tx, publicId);
      if (!found) throw userNotFound();
      if (found.deletedAt === null) await refuseLeavingNoActiveAdmin(this.admins, found, ERASURE, tx);
      await this.credentials.retireOnAccountClosed(tx, found.id);
      await this.sessions.revokeAllOnErasure(tx, found.id);
      const user = await this.erasure.lock(tx, found.id);
      if (!user) throw userNotFound();
      await this.erasure.erase(tx, user);
      // What changed is the whole account, and none of it may be named: the entry keeps the publicId only.
      await this.audit.record(tx, { action: 'user.erase', target: userTarget(user.publicId), changes: {} });
      const erasedAt = new Date().toISOString();
      await this.outbox.record(tx, EVENT_TYPES.userErased, { version: 1, userId: user.publicId, erasedAt, emailDigest: emailDigest(user.email) });
      await this.outbox.record(tx, EVENT_TYPES.accountDeletedNotice, { email: user.email, erasedAt });
    });
  }
}
