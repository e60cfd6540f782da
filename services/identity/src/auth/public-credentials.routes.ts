import type { BodyOf, PublicCredentialRouteSpecs, ResponseOf } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import type { EmailVerificationService } from '../credentials/email-verification/email-verification.service.js';
import type { PasswordResetService } from '../credentials/password-reset/password-reset.service.js';
import { CREDENTIAL_MESSAGES } from './credentials.messages.js';
import type { ResetPassword } from './use-cases/reset-password.js';

/**
 * The handlers of the public credential routes both surfaces serve identically (spec §4.1, §4.2,
 * §5): forgot, reset, email verification resend and confirm, for one surface's manifest. The reset
 * body's branch rules are the manifest's (resetPasswordBody: the branch first, then its fields).
 */
export function publicCredentialHandlers(routes: PublicCredentialRouteSpecs) {
  abstract class PublicCredentialHandlers {
    constructor(
      private readonly passwordReset: PasswordResetService,
      private readonly resetPassword: ResetPassword,
      private readonly emailVerification: EmailVerificationService,
    ) {}

    @Route(routes.forgot)
    async forgot(@RouteBody() body: BodyOf<typeof routes.forgot>): Promise<ResponseOf<typeof routes.forgot>> {
      await this.passwordReset.forgot(body);
      return success(CREDENTIAL_MESSAGES.forgot, null);
    }

    @Route(routes.reset)
    async reset(@RouteBody() body: BodyOf<typeof routes.reset>): Promise<ResponseOf<typeof routes.reset>> {
      await this.resetPassword.execute(body);
      return success(CREDENTIAL_MESSAGES.reset, null);
    }

    @Route(routes.resendEmailVerification)
    async resendEmailVerification(@RouteBody() body: BodyOf<typeof routes.resendEmailVerification>): Promise<ResponseOf<typeof routes.resendEmailVerification>> {
      await this.emailVerification.resend(body.email);
      return success(CREDENTIAL_MESSAGES.emailVerificationResent, null);
    }

    @Route(routes.confirmEmailVerification)
    async confirmEmailVerification(@RouteBody() body: BodyOf<typeof routes.confirmEmailVerification>): Promise<ResponseOf<typeof routes.confirmEmailVerification>> {
      await this.emailVerification.confirm(body.token);
      return success(CREDENTIAL_MESSAGES.emailVerified, null);
    }
  }
  return PublicCredentialHandlers;
}
