import { Injectable } from '@nestjs/common';
import { uuidv7 } from '@school/prisma';
import { auditChanges, AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { answeringLostRaces, emailTaken, phoneTaken } from '../../accounts/account-errors.js';
import { AddressEvents } from '../../accounts/address-events.js';
import { AddressGeography } from '../../accounts/address-geography.js';
import { type Profile, toProfile } from '../../accounts/profile.js';
import { AUDITED_USER_FIELDS, auditedUser, userTarget } from '../../accounts/user-audit.js';
import { UsersRepository } from '../../accounts/users.repository.js';
import { InvitationsService } from '../../credentials/invitations.service.js';
import type { CreateUserBody } from '@school/contracts';

/**
 * Create and invite (contract §6; accounts are created by an administrator only, spec §5.6): a new
 * account without a password, and its invitation (an account_invite link, emailed through the
 * outbox) in the same transaction. The email (compared case-insensitively) and the phone must be
 * free among live accounts; a concurrent create of either loses on its unique index. An address is
 * checked with reference-data first, before anything is written, and its event recorded with the
 * account.
 */
@Injectable()
export class CreateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly invitations: InvitationsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly geography: AddressGeography,
    private readonly addressEvents: AddressEvents,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(body: CreateUserBody): Promise<Profile> {
    const checked = body.address ? await this.geography.requireValid(body.address) : undefined;
    const user = await this.geography.releasingOnRefusal(checked, () =>
      answeringLostRaces(() =>
        this.unitOfWork.run(async (tx) => {
          if (await this.users.findLiveByEmail(body.email, tx)) throw emailTaken();
          if (body.phone !== undefined && (await this.users.findLiveByPhone(body.phone, tx))) throw phoneTaken();
          const created = await this.users.create(
            { publicId: uuidv7(), email: body.email, name: body.name, role: body.role, phone: body.phone ?? null, address: body.address ?? null },
            tx,
          );
          await this.invitations.issue(tx, created);
          if (body.address) await this.addressEvents.changed(tx, created, checked);
          await this.audit.record(tx, { action: 'user.create', target: userTarget(created.publicId), changes: auditChanges(undefined, auditedUser(created), AUDITED_USER_FIELDS) });
          checked?.assertStillClaimed();
          return created;
        }),
      ),
    );
    return toProfile(user, false);
  }
}
