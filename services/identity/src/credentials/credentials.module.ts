import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { AccountsModule } from '../accounts/accounts.module.js';
import { Clock } from './clock.js';
import { CREDENTIALS_OPTIONS, type CredentialsEnv, credentialsOptionsOf, GENERATED_OTP_SECRET, newOtpSecret } from './credentials.config.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import { EmailVerificationService } from './email-verification/email-verification.service.js';
import { InstallationSecretsRepository } from './installation-secrets.repository.js';
import { InvitationsService } from './invitations.service.js';
import { MessageRequestsRepository } from './message-requests/message-requests.repository.js';
import { MessageRequestsWorker } from './message-requests.worker.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import { PhoneVerificationService } from './phone-verification/phone-verification.service.js';

/**
 * Verification credentials (spec §3.1): issuing and redeeming them, forgot, invitations, email and
 * phone verification; built on accounts alone. Options come from the validated config (a
 * production start without OTP_SECRET is refused by the config rules, before anything is wired).
 * Forgot and email-verification resend only take the request; MessageRequestsWorker serves it off
 * the request's path. The routes and the operations that span contexts (reset, creating, banning
 * and deleting users) are above, in auth/ and users/.
 */
@Module({
  imports: [AccountsModule],
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
  exports: [CredentialsService, InvitationsService, PasswordResetService, EmailVerificationService, PhoneVerificationService],
})
export class CredentialsModule {}
