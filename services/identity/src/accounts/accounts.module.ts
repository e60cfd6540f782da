import { Module } from '@nestjs/common';
import { AccountEmailsRepository } from './account-emails.repository.js';
import { AccountMatchesRepository } from './account-matches.repository.js';
import { AddressEvents } from './address-events.js';
import { AddressGeography } from './address-geography.js';
import { AdminsRepository } from './admins.repository.js';
import { LoginAccountsRepository } from './login-accounts.repository.js';
import { Profiles } from './profiles.js';
import { ProviderAccountsRepository } from './provider-accounts.repository.js';
import { UserDirectoryRepository } from './user-directory.repository.js';
import { UsersRepository } from './users.repository.js';

/** The users table's readers and writer, one a file, each exported on its own so a change to one reader touches one file. */
const REPOSITORIES_AND_READERS = [
  UsersRepository,
  LoginAccountsRepository,
  AdminsRepository,
  UserDirectoryRepository,
  AccountMatchesRepository,
  ProviderAccountsRepository,
  Profiles,
  AddressGeography,
  AddressEvents,
  AccountEmailsRepository,
];

/**
 * Accounts, the bottom of identity's contexts: the only writer of users and of their EMAIL
 * provider account (the password hash), the profile read model, and the address a user's write
 * checks with reference-data and reports through the outbox. It imports no other context of
 * identity but passwords; sessions, credentials and the operations above build on it.
 */
@Module({
  providers: REPOSITORIES_AND_READERS,
  exports: REPOSITORIES_AND_READERS,
})
export class AccountsModule {}
