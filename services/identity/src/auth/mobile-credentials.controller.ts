import { Controller } from '@nestjs/common';
import { TokenSurface } from '@school/auth/nest';
import { SURFACES } from '../sessions/surface.js';
import { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import { PublicCredentialRoutes } from './public-credentials.routes.js';
import { ResetPassword } from './use-cases/reset-password.js';

/** Customer mobile surface (spec §4.2): the public credential routes. */
@Controller('api/mobile/auth')
@TokenSurface(SURFACES.mobile)
export class MobileCredentialsController extends PublicCredentialRoutes {
  constructor(passwordReset: PasswordResetService, resetPassword: ResetPassword, emailVerification: EmailVerificationService) {
    super(passwordReset, resetPassword, emailVerification);
  }
}
