import { Module } from '@nestjs/common';
import { LoginBackoffModule } from '../login-backoff/login-backoff.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AuthService } from './auth.service.js';
import { MobileAuthController } from './mobile-auth.controller.js';

/** Login, refresh, logout, me, permissions and set password on both surfaces. */
@Module({
  imports: [UsersModule, PasswordsModule, SessionsModule, LoginBackoffModule],
  controllers: [AdminAuthController, MobileAuthController],
  providers: [AuthService],
})
export class AuthenticationModule {}
