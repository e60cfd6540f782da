import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { auditChanges, AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { answeringLostRaces, phoneTaken, userNotFound } from '../../accounts/account-errors.js';
import { type AccountControl, isSelfAction, mayRemoveActiveAdmin } from '../../accounts/account-rules.js';
import { AddressEvents } from '../../accounts/address-events.js';
import { AdminsRepository } from '../../accounts/admins.repository.js';
import { AddressGeography } from '../../accounts/address-geography.js';
import { type Profile, toProfile } from '../../accounts/profile.js';
import { AUDITED_USER_FIELDS, auditedUser, userTarget } from '../../accounts/user-audit.js';
import { UserDirectoryRepository } from '../../accounts/user-directory.repository.js';
import { type UserChanges, UsersRepository } from '../../accounts/users.repository.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import { SESSION_REVOKE_REASONS } from '../../sessions/session-revoke-reason.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import type { UpdateUserBody } from '@school/contracts';
import { refuseLeavingNoActiveAdmin } from '../../accounts/last-admin.js';

/**
 * `PATCH /api/users/:publicId` (contract §6): name, phone and address edits, ban and role change.
 * Banning ends every session of the account at once and retires its live reset and invitation
 * credentials. A role change ends the sessions too: access tokens carry the role, and a session may
 * belong to a surface the new role may not use. Neither may leave the system without an active
 * admin, and an admin may not ban themselves. A new phone number is not verified yet, and must not
 * be another live account's. A new address is checked with reference-data before the transaction
 * opens; `address: null` removes it. Either way the committed address is told to reference-data
 * through the outbox.
 */
@Injectable()
export class UpdateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly admins: AdminsRepository,
    private readonly directory: UserDirectoryRepository,
    private readonly sessions: SessionsService,
    private readonly credentials: CredentialsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly geography: AddressGeography,
    private readonly addressEvents: AddressEvents,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(actor: Principal, publicId: string, body: UpdateUserBody): Promise<Profile> {
    const control: AccountControl = { banned: body.banned, role: body.role };
    if (isSelfAction(actor.userId, publicId, control)) throw new AppError('USER_SELF_ACTION');
    const checked = body.address ? await this.geography.requireValid(body.address) : undefined;
    return this.geography.releasingOnRefusal(checked, () =>
      answeringLostRaces(() =>
        this.unitOfWork.run(async (tx) => {
          if (mayRemoveActiveAdmin(control)) await this.admins.lockActiveAdmins(tx);
          const account = await this.directory.findLiveAccountByPublicId(publicId, tx);
          if (!account) throw userNotFound();
          const { user } = account;
          await refuseLeavingNoActiveAdmin(this.admins, user, control, tx);
          const phoneChanges = body.phone !== undefined && body.phone !== user.phone;
          if (phoneChanges && typeof body.phone === 'string' && (await this.users.findLiveByPhone(body.phone, tx))) throw phoneTaken();

          // The person's credential lock before the row lock of the update, in the order redemptions take them.
          if (body.banned === true) await this.credentials.retireOnAccountClosed(tx, user.id);
          const changes: UserChanges = {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.role !== undefined && { role: body.role }),
            ...(body.banned !== undefined && { banned: body.banned }),
            ...(phoneChanges && { phone: body.phone, phoneVerifiedAt: null }),
            ...(body.address !== undefined && { address: body.address }),
          };
          const updated = await this.users.update(user.id, changes, tx);
          if (body.address !== undefined) await this.addressEvents.changed(tx, updated, checked);
          await this.audit.record(tx, { action: 'user.update', target: userTarget(publicId), changes: auditChanges(auditedUser(user), auditedUser(updated), AUDITED_USER_FIELDS) });
          if (body.banned === true) {
            await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.ban);
          } else if (body.role !== undefined && body.role !== user.role) {
            await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.roleChanged);
          }
          checked?.assertStillClaimed();
          return toProfile(updated, account.passwordHash !== null);
        }),
      ),
    );
  }
}
