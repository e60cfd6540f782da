import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AddressGeography } from './address-geography.js';
import { AddressReferencesHandler } from './address-references.handler.js';
import { UsersController } from './users.controller.js';
import { UsersModule } from './users.module.js';
import { UserSessionsService } from './user-sessions.service.js';
import { UsersService } from './users.service.js';

/**
 * `/api/users` (contract §6). Kept apart from UsersModule, which the credentials context imports,
 * so that creating a user can call the invitations of CredentialsModule without a cycle. Also
 * answers reference-data's ADDRESS_REFERENCES question.
 */
@Module({
  imports: [UsersModule, SessionsModule, CredentialsModule],
  controllers: [UsersController],
  providers: [UsersService, UserSessionsService, AddressGeography, AddressReferencesHandler],
})
export class UsersAdminModule {}
