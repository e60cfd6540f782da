import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher.js';
import { ProviderAccountsRepository } from './provider-accounts.repository.js';

@Module({
  providers: [{ provide: PasswordHasher, useFactory: () => new PasswordHasher() }, ProviderAccountsRepository],
  exports: [PasswordHasher, ProviderAccountsRepository],
})
export class PasswordsModule {}
