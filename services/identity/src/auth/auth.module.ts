import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { LoginBackoffModule } from '../login-backoff/login-backoff.module.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AdminCredentialsController } from './admin-credentials.controller.js';
import { AdminMfaController } from './admin-mfa.controller.js';
import { AuthService } from './auth.service.js';
import { MobileAuthController } from './mobile-auth.controller.js';
import { MobileCredentialsController } from './mobile-credentials.controller.js';
import { NewDeviceAlert } from './new-device-alert.js';
import { OwnSessionsService } from './own-sessions.service.js';
import { Login } from './use-cases/login.js';
import { LoginMfa } from './use-cases/login-mfa.js';
import { RefreshTokens } from './use-cases/refresh-tokens.js';
import { ResetPassword } from './use-cases/reset-password.js';
import { SetPassword } from './use-cases/set-password.js';

/**
 * `/api/auth` and `/api/mobile/auth` (spec §4.1, §4.2): login, refresh, logout, me, permissions,
 * set password, the caller's sessions, forgot, reset and verification, over accounts, sessions,
 * credentials, passwords, the login back-off and two-step sign-in (contract §12).
 */
@Module({
  imports: [AccountsModule, PasswordsModule, SessionsModule, LoginBackoffModule, CredentialsModule, MfaModule],
  controllers: [AdminAuthController, AdminMfaController, MobileAuthController, AdminCredentialsController, MobileCredentialsController],
  providers: [AuthService, NewDeviceAlert, OwnSessionsService, Login, LoginMfa, RefreshTokens, SetPassword, ResetPassword],
})
export class AuthenticationModule {}
