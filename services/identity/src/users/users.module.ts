import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersController } from './users.controller.js';
import { UserSessionsService } from './user-sessions.service.js';
import { CreateUser } from './use-cases/create-user.js';
import { DeleteUser } from './use-cases/delete-user.js';
import { EraseUser } from './use-cases/erase-user.js';
import { ErasureRepository } from './erasure.repository.js';
import { ResetMfa } from './use-cases/reset-mfa.js';
import { UpdateUser } from './use-cases/update-user.js';

/** `/api/users` (contract §6): the administrator's operations on accounts, over accounts, credentials, sessions and two-step sign-in. */
@Module({
  imports: [AccountsModule, SessionsModule, CredentialsModule, MfaModule],
  controllers: [UsersController],
  providers: [CreateUser, UpdateUser, DeleteUser, EraseUser, ErasureRepository, UserSessionsService, ResetMfa],
})
export class UsersModule {}
