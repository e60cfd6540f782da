import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError, type PageInfo, pageInfo, pageWindow } from '@school/http';
import { uuidv7 } from '@school/prisma';
import { type Transaction, UnitOfWork } from '@school/service';
import { CredentialsService } from '../credentials/credentials.service.js';
import { InvitationsService } from '../credentials/invitations.service.js';
import type { User } from '../generated/prisma/client.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { AddressEvents } from './address-events.js';
import { AddressGeography, type CheckedAddress } from './address-geography.js';
import { type AccountControl, isSelfAction, mayRemoveActiveAdmin, removesActiveAdmin } from './account-rules.js';
import type { CreateUserBody, UpdateUserBody } from './dto/user-body.dto.js';
import type { ListUsersQuery } from './dto/list-users.query.js';
import { type Profile, toProfile } from './profile.js';
import { type UserChanges, UsersRepository, violatedLiveUnique } from './users.repository.js';

const emailTaken = () => new AppError('USER_EMAIL_TAKEN');
const phoneTaken = () => new AppError('USER_PHONE_TAKEN');
const userNotFound = () => new AppError('USER_NOT_FOUND');

/** A lost race on a live-account unique index, as the answer the pre-check would have given. */
function takenError(error: unknown): AppError | undefined {
  const field = violatedLiveUnique(error);
  return field === 'email' ? emailTaken() : field === 'phone' ? phoneTaken() : undefined;
}

/**
 * Users admin of contract §6: accounts are created by an administrator only (spec §5.6). Email and
 * phone are unique among live accounts; an admin cannot ban or delete their own account, and no
 * change may leave the system without an active admin.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly invitations: InvitationsService,
    private readonly credentials: CredentialsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly geography: AddressGeography,
    private readonly addressEvents: AddressEvents,
  ) {}

  /**
   * A new account without a password, and its invitation (an account_invite link, emailed through
   * the outbox) in the same transaction. The email (compared case-insensitively) and the phone must
   * be free among live accounts; a concurrent create of either loses on its unique index. An
   * address is checked with reference-data first, before anything is written, and its event
   * recorded with the account.
   */
  async create(body: CreateUserBody): Promise<Profile> {
    const checked = body.address ? await this.geography.requireValid(body.address) : undefined;
    const user = await this.releasingOnRefusal(checked, () =>
      this.unitOfWork.run(async (tx) => {
        if (await this.users.findLiveByEmail(body.email, tx)) throw emailTaken();
        if (body.phone !== undefined && (await this.users.findLiveByPhone(body.phone, tx))) throw phoneTaken();
        const created = await this.users.create(
          { publicId: uuidv7(), email: body.email, name: body.name, role: body.role, phone: body.phone ?? null, address: body.address ?? null },
          tx,
        );
        await this.invitations.issue(tx, created);
        if (body.address) await this.addressEvents.changed(tx, created, checked);
        checked?.assertStillClaimed();
        return created;
      }),
    );
    return toProfile(user, false);
  }

  async list(query: ListUsersQuery): Promise<{ profiles: Profile[]; page: PageInfo }> {
    const { accounts, count } = await this.users.list({ search: query.search || undefined, order: query.order, ...pageWindow(query) });
    return { profiles: accounts.map((account) => toProfile(account.user, account.passwordHash !== null)), page: pageInfo(query, count) };
  }

  async get(publicId: string): Promise<Profile> {
    const account = await this.users.findLiveAccountByPublicId(publicId);
    if (!account) throw userNotFound();
    return toProfile(account.user, account.passwordHash !== null);
  }

  /**
   * Banning ends every session of the account at once and retires its live reset and invitation
   * credentials. A role change ends the sessions too: access tokens carry the role, and a session
   * may belong to a surface the new role may not use. A new phone number is not verified yet, and
   * must not be another live account's. A new address is checked with reference-data before the
   * transaction opens; `address: null` removes it. Either way the committed address is told to
   * reference-data through the outbox.
   */
  async update(actor: Principal, publicId: string, body: UpdateUserBody): Promise<Profile> {
    const control: AccountControl = { banned: body.banned, role: body.role };
    if (isSelfAction(actor.userId, publicId, control)) throw new AppError('USER_SELF_ACTION');
    const checked = body.address ? await this.geography.requireValid(body.address) : undefined;
    return this.releasingOnRefusal(checked, () =>
      this.unitOfWork.run(async (tx) => {
        if (mayRemoveActiveAdmin(control)) await this.users.lockActiveAdmins(tx);
        const account = await this.users.findLiveAccountByPublicId(publicId, tx);
        if (!account) throw userNotFound();
        const { user } = account;
        await this.refuseLeavingNoActiveAdmin(user, control, tx);
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
        if (body.banned === true) {
          await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.ban);
        } else if (body.role !== undefined && body.role !== user.role) {
          await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.roleChanged);
        }
        checked?.assertStillClaimed();
        return toProfile(updated, account.passwordHash !== null);
      }),
    );
  }

  /**
   * Soft delete: the account becomes unknown everywhere, its sessions end at once and its live
   * reset and invitation credentials are retired.
   */
  async remove(actor: Principal, publicId: string): Promise<void> {
    const control: AccountControl = { deleted: true };
    if (isSelfAction(actor.userId, publicId, control)) throw new AppError('USER_SELF_ACTION');
    await this.unitOfWork.run(async (tx) => {
      await this.users.lockActiveAdmins(tx);
      const user = await this.users.findLiveByPublicId(publicId, tx);
      if (!user) throw userNotFound();
      await this.refuseLeavingNoActiveAdmin(user, control, tx);
      await this.credentials.retireOnAccountClosed(tx, user.id);
      await this.users.softDelete(user.id, tx);
      await this.sessions.revokeAllForUser(tx, user.id, SESSION_REVOKE_REASONS.deleted);
    });
  }

  /** Under the active-admins lock: the target may stop being an active admin only if another one remains. */
  private async refuseLeavingNoActiveAdmin(user: User, control: AccountControl, tx: Transaction): Promise<void> {
    if (removesActiveAdmin(user, control) && (await this.users.countActiveAdmins(tx)) <= 1) throw new AppError('USER_LAST_ADMIN');
  }

  /**
   * Runs a write (a lost unique race answered as its pre-check would have). A refusal (an AppError)
   * rolled the transaction back, so the claim the write relied on is released, without waiting.
   */
  private async releasingOnRefusal<T>(checked: CheckedAddress | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (caught) {
      const error = takenError(caught) ?? caught;
      if (checked && error instanceof AppError) void this.geography.release(checked);
      throw error;
    }
  }
}
