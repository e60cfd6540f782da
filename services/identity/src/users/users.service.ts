import { Injectable } from '@nestjs/common';
import { AppError, type PageInfo } from '@school/http';
import { uuidv7 } from '@school/messaging';
import { InvitationsService } from '../credentials/invitations.service.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { CreateUserBody, UpdateUserBody } from './dto/user-body.dto.js';
import { type ListUsersQuery, UNPAGINATED_CAP } from './dto/list-users.query.js';
import { type Profile, toProfile } from './profile.js';
import { isUniqueViolation, type UserChanges, UsersRepository } from './users.repository.js';

const emailTaken = () => new AppError('USER_EMAIL_TAKEN');
const userNotFound = () => new AppError('USER_NOT_FOUND');

/** Users admin of contract §6: accounts are created by an administrator only (spec §5.6). */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly invitations: InvitationsService,
  ) {}

  /**
   * A new account without a password, and its invitation (an account_invite link, emailed through
   * the outbox) in the same transaction. The email must be free among live accounts, compared
   * case-insensitively; a concurrent create of the same email loses on the unique index.
   */
  async create(body: CreateUserBody): Promise<Profile> {
    try {
      const user = await this.users.transaction(async (tx) => {
        if (await this.users.findLiveByEmail(body.email, tx)) throw emailTaken();
        const created = await this.users.create({ publicId: uuidv7(), email: body.email, name: body.name, role: body.role, phone: body.phone ?? null }, tx);
        await this.invitations.issue(tx, created);
        return created;
      });
      return toProfile(user, false);
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async list(query: ListUsersQuery): Promise<{ profiles: Profile[]; page: PageInfo }> {
    const take = query.pagination ? query.size : UNPAGINATED_CAP;
    const skip = query.pagination ? (query.page - 1) * query.size : 0;
    const { accounts, count } = await this.users.list({ search: query.search || undefined, order: query.order, skip, take });
    return {
      profiles: accounts.map((account) => toProfile(account.user, account.passwordHash !== null)),
      page: { count, currentPage: query.pagination ? query.page : 1, totalPage: query.pagination ? Math.ceil(count / query.size) : count > 0 ? 1 : 0 },
    };
  }

  async get(publicId: string): Promise<Profile> {
    const account = await this.users.findLiveAccountByPublicId(publicId);
    if (!account) throw userNotFound();
    return toProfile(account.user, account.passwordHash !== null);
  }

  /**
   * Banning ends every session of the account at once. So does a role change: access tokens carry
   * the role, and a session may belong to a surface the new role may not use.
   * A new phone number is not verified yet.
   */
  async update(publicId: string, body: UpdateUserBody): Promise<Profile> {
    return this.users.transaction(async (tx) => {
      const account = await this.users.findLiveAccountByPublicId(publicId, tx);
      if (!account) throw userNotFound();
      const { user } = account;
      const changes: UserChanges = {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.role !== undefined && { role: body.role }),
        ...(body.banned !== undefined && { banned: body.banned }),
        ...(body.phone !== undefined && body.phone !== user.phone && { phone: body.phone, phoneVerifiedAt: null }),
      };
      const updated = await this.users.update(user.id, changes, tx);
      if (body.banned === true) {
        await this.sessions.revokeAllForUser(user.id, SESSION_REVOKE_REASONS.ban, tx);
      } else if (body.role !== undefined && body.role !== user.role) {
        await this.sessions.revokeAllForUser(user.id, SESSION_REVOKE_REASONS.roleChanged, tx);
      }
      return toProfile(updated, account.passwordHash !== null);
    });
  }

  /** Soft delete: the account becomes unknown everywhere and its sessions end at once. */
  async remove(publicId: string): Promise<void> {
    await this.users.transaction(async (tx) => {
      const user = await this.users.findLiveByPublicId(publicId, tx);
      if (!user) throw userNotFound();
      await this.users.softDelete(user.id, tx);
      await this.sessions.revokeAllForUser(user.id, SESSION_REVOKE_REASONS.deleted, tx);
    });
  }
}
