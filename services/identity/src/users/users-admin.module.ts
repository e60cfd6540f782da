import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AddressEvents } from './address-events.js';
import { AddressGeography } from './address-geography.js';
import { UsersController } from './users.controller.js';
import { UsersModule } from './users.module.js';
import { UserSessionsService } from './user-sessions.service.js';
import { UsersService } from './users.service.js';

/**
 * `/api/users` (contract §6). Kept apart from UsersModule, which the credentials context imports,
 * so that creating a user can call the invitations of CredentialsModule without a cycle.
 */
@Module({
  imports: [UsersModule, SessionsModule, CredentialsModule],
  controllers: [UsersController],
  providers: [UsersService, UserSessionsService, AddressGeography, AddressEvents],
})
export class UsersAdminModule {}
