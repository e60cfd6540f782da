import { Body, HttpCode, Post } from '@nestjs/common';
import { success, type SuccessEnvelope } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import {
  confirmEmailVerificationBody,
  type ConfirmEmailVerificationBody,
  resendEmailVerificationBody,
  type ResendEmailVerificationBody,
} from '../credentials/dto/email-verification.dto.js';
import { forgotPasswordBody, type ForgotPasswordRequest } from '../credentials/dto/forgot-password.dto.js';
import { type ResetPasswordCommand, ResetPasswordPipe } from '../credentials/dto/reset-password.dto.js';
import { CREDENTIAL_MESSAGES } from './credentials.messages.js';
import { ResetPassword } from './use-cases/reset-password.js';

/**
 * The public credential routes both surfaces serve identically (spec §4.1, §4.2, §5): forgot,
 * reset, email verification resend and confirm. Each surface's controller extends this with its prefix.
 */
export abstract class PublicCredentialRoutes {
  constructor(
    private readonly passwordReset: PasswordResetService,
    private readonly resetPassword: ResetPassword,
    private readonly emailVerification: EmailVerificationService,
  ) {}

  @Post('password/forgot')
  @HttpCode(200)
  async forgot(@Body(new ZodPipe(forgotPasswordBody)) body: ForgotPasswordRequest): Promise<SuccessEnvelope<null>> {
    await this.passwordReset.forgot(body);
    return success(CREDENTIAL_MESSAGES.forgot, null);
  }

  @Post('password/reset')
  @HttpCode(200)
  async reset(@Body(ResetPasswordPipe) command: ResetPasswordCommand): Promise<SuccessEnvelope<null>> {
    await this.resetPassword.execute(command);
    return success(CREDENTIAL_MESSAGES.reset, null);
  }

  @Post('email/verify/resend')
  @HttpCode(200)
  async resendEmailVerification(@Body(new ZodPipe(resendEmailVerificationBody)) body: ResendEmailVerificationBody): Promise<SuccessEnvelope<null>> {
    await this.emailVerification.resend(body.email);
    return success(CREDENTIAL_MESSAGES.emailVerificationResent, null);
  }

  @Post('email/verify/confirm')
  @HttpCode(200)
  async confirmEmailVerification(@Body(new ZodPipe(confirmEmailVerificationBody)) body: ConfirmEmailVerificationBody): Promise<SuccessEnvelope<null>> {
    await this.emailVerification.confirm(body.token);
    return success(CREDENTIAL_MESSAGES.emailVerified, null);
  }
}
