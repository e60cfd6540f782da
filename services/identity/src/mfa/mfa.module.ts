import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { InstallationSecretsRepository } from '../credentials/installation-secrets.repository.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { GENERATED_MFA_KEY, MFA_OPTIONS, type MfaEnv, mfaOptionsOf, newMfaKey } from './mfa.config.js';
import { MfaRepository } from './mfa.repository.js';
import { TwoStepSignIn } from './two-step-sign-in.service.js';

/**
 * Two-step sign-in (contract §12): the TOTP factor, recovery codes and the second step's
 * challenges, over sessions and passwords. Its routes are above, in auth/ and users/. A production
 * start without MFA_ENCRYPTION_KEY is refused by the config rules; elsewhere the key is generated
 * once per installation.
 */
@Module({
  imports: [PasswordsModule, SessionsModule],
  providers: [
    InstallationSecretsRepository,
    {
      provide: MFA_OPTIONS,
      useFactory: async (config: MfaEnv, secrets: InstallationSecretsRepository) =>
        mfaOptionsOf(config, config.MFA_ENCRYPTION_KEY ? undefined : await secrets.keep(GENERATED_MFA_KEY, newMfaKey)),
      inject: [APP_CONFIG, InstallationSecretsRepository],
    },
    MfaRepository,
    TwoStepSignIn,
  ],
  exports: [TwoStepSignIn],
})
export class MfaModule {}
