import { Controller } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { ADMIN_CREDENTIAL_ROUTES as ROUTES, type BodyOf, type ResponseOf } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import { PhoneVerificationService } from '../credentials/phone-verification/phone-verification.service.js';
import { CREDENTIAL_MESSAGES } from './credentials.messages.js';
import { publicCredentialHandlers } from './public-credentials.routes.js';
import { ResetPassword } from './use-cases/reset-password.js';

/** Admin surface (spec §4.1): the routes of ADMIN_CREDENTIAL_ROUTES, phone verification among them (JWT, admin-surface tokens only). */
@Controller()
export class AdminCredentialsController extends publicCredentialHandlers(ROUTES) {
  constructor(
    passwordReset: PasswordResetService,
    resetPassword: ResetPassword,
    emailVerification: EmailVerificationService,
    private readonly phoneVerification: PhoneVerificationService,
  ) {
    super(passwordReset, resetPassword, emailVerification);
  }

  @Route(ROUTES.requestPhoneVerification)
  async requestPhoneVerification(
    @CurrentPrincipal() principal: Principal,
    @RouteBody() body: BodyOf<typeof ROUTES.requestPhoneVerification>,
  ): Promise<ResponseOf<typeof ROUTES.requestPhoneVerification>> {
    await this.phoneVerification.request(principal, body.phone);
    return success(CREDENTIAL_MESSAGES.phoneCodeSent, null);
  }

  @Route(ROUTES.confirmPhoneVerification)
  async confirmPhoneVerification(
    @CurrentPrincipal() principal: Principal,
    @RouteBody() body: BodyOf<typeof ROUTES.confirmPhoneVerification>,
  ): Promise<ResponseOf<typeof ROUTES.confirmPhoneVerification>> {
    await this.phoneVerification.confirm(principal, body.phone, body.otp);
    return success(CREDENTIAL_MESSAGES.phoneVerified, null);
  }
}
