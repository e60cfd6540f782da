import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { LoginBackoffModule } from '../login-backoff/login-backoff.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { Clock } from './clock.js';
import { CREDENTIALS_OPTIONS, type CredentialsEnv, credentialsOptionsOf, GENERATED_OTP_SECRET, newOtpSecret } from './credentials.config.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import { EmailVerificationService } from './email-verification/email-verification.service.js';
import { AdminCredentialsController } from '../auth/admin-credentials.controller.js';
import { MobileCredentialsController } from '../auth/mobile-credentials.controller.js';
import { InstallationSecretsRepository } from './installation-secrets.repository.js';
import { InvitationsService } from './invitations.service.js';
import { MessageRequestsRepository } from './message-requests/message-requests.repository.js';
import { MessageRequestsWorker } from './message-requests/message-requests.worker.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import { PhoneVerificationService } from './phone-verification/phone-verification.service.js';

/**
 * Verification credentials (spec §3.1): forgot/reset, invitations, email and phone verification.
 * Options come from the validated config (a production start without OTP_SECRET is refused by
 * the config rules, before anything is wired). Forgot and email-verification resend only take the
 * request; MessageRequestsWorker serves it off the request's path. InvitationsService is exported
 * for creating users (UsersModule), CredentialsService for retention and for retiring the
 * credentials of a banned or deleted account.
 */
@Module({
  imports: [PasswordsModule, SessionsModule, AccountsModule, LoginBackoffModule],
  controllers: [AdminCredentialsController, MobileCredentialsController],
  providers: [
    InstallationSecretsRepository,
    {
      provide: CREDENTIALS_OPTIONS,
      useFactory: async (config: CredentialsEnv, secrets: InstallationSecretsRepository) =>
        credentialsOptionsOf(config, config.OTP_SECRET ? undefined : await secrets.keep(GENERATED_OTP_SECRET, newOtpSecret)),
      inject: [APP_CONFIG, InstallationSecretsRepository],
    },
    Clock,
    CredentialsRepository,
    CredentialsService,
    PasswordResetService,
    InvitationsService,
    EmailVerificationService,
    PhoneVerificationService,
    MessageRequestsRepository,
    MessageRequestsWorker,
  ],
  exports: [InvitationsService, CredentialsService],
})
export class CredentialsModule {}
