import { Controller } from '@nestjs/common';
import { MOBILE_CREDENTIAL_ROUTES } from '@school/contracts';
import { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import { publicCredentialHandlers } from './public-credentials.routes.js';
import { ResetPassword } from './use-cases/reset-password.js';

/** Customer mobile surface (spec §4.2): the routes of MOBILE_CREDENTIAL_ROUTES. */
@Controller()
export class MobileCredentialsController extends publicCredentialHandlers(MOBILE_CREDENTIAL_ROUTES) {
  constructor(passwordReset: PasswordResetService, resetPassword: ResetPassword, emailVerification: EmailVerificationService) {
    super(passwordReset, resetPassword, emailVerification);
  }
}
