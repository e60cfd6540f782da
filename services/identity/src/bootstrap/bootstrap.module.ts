import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { BootstrapAdminService } from './bootstrap-admin.service.js';

@Module({
  imports: [AccountsModule, PasswordsModule],
  providers: [BootstrapAdminService],
})
export class BootstrapModule {}
