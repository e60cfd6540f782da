import { Controller } from '@nestjs/common';
import { MOBILE_CREDENTIAL_ROUTES } from '@school/contracts';
import { EmailVerificationService } from '../email-verification/email-verification.service.js';
import { PasswordResetService } from '../password-reset/password-reset.service.js';
import { publicCredentialHandlers } from './public-credentials.routes.js';

/** Customer mobile surface (spec §4.2): the routes of MOBILE_CREDENTIAL_ROUTES. */
@Controller()
export class MobileCredentialsController extends publicCredentialHandlers(MOBILE_CREDENTIAL_ROUTES) {
  constructor(passwordReset: PasswordResetService, emailVerification: EmailVerificationService) {
    super(passwordReset, emailVerification);
  }
}
