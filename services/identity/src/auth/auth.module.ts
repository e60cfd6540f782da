import { Module } from '@nestjs/common';
import { LoginBackoffModule } from '../login-backoff/login-backoff.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AuthService } from './auth.service.js';
import { MobileAuthController } from './mobile-auth.controller.js';
import { NewDeviceAlert } from './new-device-alert.js';
import { OwnSessionsService } from './own-sessions.service.js';
import { Login } from './use-cases/login.js';
import { RefreshTokens } from './use-cases/refresh-tokens.js';
import { SetPassword } from './use-cases/set-password.js';

/** Login, refresh, logout, me, permissions, set password and the caller's sessions on both surfaces. */
@Module({
  imports: [AccountsModule, PasswordsModule, SessionsModule, LoginBackoffModule],
  controllers: [AdminAuthController, MobileAuthController],
  providers: [AuthService, NewDeviceAlert, OwnSessionsService, Login, RefreshTokens, SetPassword],
})
export class AuthenticationModule {}
