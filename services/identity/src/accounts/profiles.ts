import { Injectable } from '@nestjs/common';
import { type ListQuery, type PageInfo, pageInfo, pageWindow } from '@school/http';
import { userNotFound } from './account-errors.js';
import { type Profile, type ProfileSource, toProfile } from './profile.js';
import { LoginAccountsRepository } from './login-accounts.repository.js';
import { UserDirectoryRepository } from './user-directory.repository.js';

/** `GET /api/users`: contract §5's list parameters and a search over name and email. */
export interface ProfileListQuery extends ListQuery {
  search?: string | undefined;
}

/** The profile read model (contract §4): accounts as `me`, login, refresh and the users admin routes show them. */
@Injectable()
export class Profiles {
  constructor(
    private readonly directory: UserDirectoryRepository,
    private readonly accounts: LoginAccountsRepository,
  ) {}

  /** The profile of a live account, or null when there is none with this publicId. */
  async ofLive(publicId: string): Promise<Profile | null> {
    const account = await this.directory.findLiveAccountByPublicId(publicId);
    return account && profileOf(account);
  }

  /** The signed-in caller's profile (`me`), or null when their account is gone; read in the login lookup's one query. */
  async ofCaller(publicId: string): Promise<Profile | null> {
    const account = await this.accounts.findCallerAccount(publicId);
    return account && profileOf(account);
  }

  /** 404 USER_NOT_FOUND when no live account has this publicId. */
  async get(publicId: string): Promise<Profile> {
    const profile = await this.ofLive(publicId);
    if (!profile) throw userNotFound();
    return profile;
  }

  async list(query: ProfileListQuery): Promise<{ profiles: Profile[]; page: PageInfo }> {
    const { accounts, count } = await this.directory.list({ search: query.search || undefined, order: query.order, ...pageWindow(query) });
    return { profiles: accounts.map(profileOf), page: pageInfo(query, count) };
  }
}

/** The profile of an account as a repository read it: its user and whether it has a password hash. */
export function profileOf(account: { user: ProfileSource; passwordHash: string | null }): Profile {
  return toProfile(account.user, account.passwordHash !== null);
}
