import { Module } from '@nestjs/common';
import { UsersRepository } from './users.repository.js';

/** The users table, for every context that reads or writes accounts. */
@Module({
  providers: [UsersRepository],
  exports: [UsersRepository],
})
export class UsersModule {}
