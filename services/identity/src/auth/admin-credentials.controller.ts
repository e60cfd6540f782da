import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { Authenticated, CurrentPrincipal, TokenSurface } from '@school/auth/nest';
import { success, type SuccessEnvelope } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import { PhoneVerificationService } from '../credentials/phone-verification/phone-verification.service.js';
import {
  confirmPhoneVerificationBody,
  type ConfirmPhoneVerificationBody,
  requestPhoneVerificationBody,
  type RequestPhoneVerificationBody,
} from '../credentials/dto/phone-verification.dto.js';
import { SURFACES } from '../sessions/surface.js';
import { CREDENTIAL_MESSAGES } from './credentials.messages.js';
import { PublicCredentialRoutes } from './public-credentials.routes.js';
import { ResetPassword } from './use-cases/reset-password.js';

/** Admin surface (spec §4.1): the public credential routes plus phone verification (JWT, admin-surface tokens only). */
@Controller('api/auth')
@TokenSurface(SURFACES.admin)
export class AdminCredentialsController extends PublicCredentialRoutes {
  constructor(
    passwordReset: PasswordResetService,
    resetPassword: ResetPassword,
    emailVerification: EmailVerificationService,
    private readonly phoneVerification: PhoneVerificationService,
  ) {
    super(passwordReset, resetPassword, emailVerification);
  }

  @Post('phone/verify/request')
  @HttpCode(200)
  @Authenticated()
  async requestPhoneVerification(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodPipe(requestPhoneVerificationBody)) body: RequestPhoneVerificationBody,
  ): Promise<SuccessEnvelope<null>> {
    await this.phoneVerification.request(principal, body.phone);
    return success(CREDENTIAL_MESSAGES.phoneCodeSent, null);
  }

  @Post('phone/verify/confirm')
  @HttpCode(200)
  @Authenticated()
  async confirmPhoneVerification(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodPipe(confirmPhoneVerificationBody)) body: ConfirmPhoneVerificationBody,
  ): Promise<SuccessEnvelope<null>> {
    await this.phoneVerification.confirm(principal, body.phone, body.otp);
    return success(CREDENTIAL_MESSAGES.phoneVerified, null);
  }
}
