import type { Role } from '@school/auth';
import { AppError } from '@school/http';
import { isUniqueViolation, uuidv7 } from '@school/prisma';
import type { Transaction, UnitOfWork } from '@school/service';
import type { User } from '../generated/prisma/client.js';
import type { AdminsRepository } from './admins.repository.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { ProviderAccountsRepository } from './provider-accounts.repository.js';
import type { UsersRepository } from './users.repository.js';

/** An account created with its password, by the operator (CLI or bootstrap), not through an invitation. */
export interface NewAccount {
  email: string;
  name: string;
  role: Role;
  /** Already checked against the strong-password rule. */
  password: string;
}

export type EnsureAdminResult = { outcome: 'exists' } | { outcome: 'created'; user: User } | { outcome: 'email-taken' };

/** Creates accounts with a password: `npm run user:create` and the bootstrap admin. */
export class AccountCreator {
  constructor(
    private readonly users: UsersRepository,
    private readonly admins: AdminsRepository,
    private readonly providerAccounts: ProviderAccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** 409 USER_EMAIL_TAKEN when a live account has the email. */
  async create(account: NewAccount): Promise<User> {
    const passwordHash = await this.hasher.hash(account.password);
    try {
      return await this.unitOfWork.run(async (tx) => {
        if (await this.users.findLiveByEmail(account.email, tx)) throw new AppError('USER_EMAIL_TAKEN');
        return this.insert(account, passwordHash, tx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('USER_EMAIL_TAKEN');
      throw error;
    }
  }

  /**
   * Creates the admin unless a live admin exists. Idempotent, and safe when several replicas
   * start at once: they queue on an advisory lock and re-check under it.
   */
  async ensureAdmin(account: Omit<NewAccount, 'role'>): Promise<EnsureAdminResult> {
    if (await this.admins.existsLiveAdmin()) return { outcome: 'exists' };
    const passwordHash = await this.hasher.hash(account.password);
    return this.unitOfWork.run(async (tx): Promise<EnsureAdminResult> => {
      await this.admins.lockBootstrap(tx);
      if (await this.admins.existsLiveAdmin(tx)) return { outcome: 'exists' };
      if (await this.users.findLiveByEmail(account.email, tx)) return { outcome: 'email-taken' };
      return { outcome: 'created', user: await this.insert({ ...account, role: 'admin' }, passwordHash, tx) };
    });
  }

  private async insert(account: NewAccount, passwordHash: string, tx: Transaction): Promise<User> {
    const user = await this.users.create({ publicId: uuidv7(), email: account.email, name: account.name, role: account.role }, tx);
    await this.providerAccounts.setPasswordHash(tx, user.id, passwordHash);
    // The operator handed over the password as an invitation would: its first login sends no new-device email (contract §10).
    await this.users.trustNextLogin(tx, user.id);
    return user;
  }
}
