import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { UsersModule } from '../users/users.module.js';
import { BootstrapAdminService } from './bootstrap-admin.service.js';

@Module({
  imports: [UsersModule, PasswordsModule],
  providers: [BootstrapAdminService],
})
export class BootstrapModule {}
