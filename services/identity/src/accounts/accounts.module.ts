import { Module } from '@nestjs/common';
import { AccountEmailsRepository } from './account-emails.repository.js';
import { AddressEvents } from './address-events.js';
import { AddressGeography } from './address-geography.js';
import { Profiles } from './profiles.js';
import { ProviderAccountsRepository } from './provider-accounts.repository.js';
import { UsersRepository } from './users.repository.js';

/**
 * Accounts, the bottom of identity's contexts: the only writer of users and of their EMAIL
 * provider account (the password hash), the profile read model, and the address a user's write
 * checks with reference-data and reports through the outbox. It imports no other context of
 * identity but passwords; sessions, credentials and the operations above build on it.
 */
@Module({
  providers: [UsersRepository, ProviderAccountsRepository, Profiles, AddressGeography, AddressEvents, AccountEmailsRepository],
  exports: [UsersRepository, ProviderAccountsRepository, Profiles, AddressGeography, AddressEvents, AccountEmailsRepository],
})
export class AccountsModule {}
