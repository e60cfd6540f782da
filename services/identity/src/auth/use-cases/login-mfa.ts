import { Injectable } from '@nestjs/common';
import type { Role } from '@school/auth';
import type { LoginMfaBody } from '@school/contracts';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { type Transaction, UnitOfWork } from '@school/service';
import { toProfile } from '../../accounts/profile.js';
import { userActor, userTarget } from '../../accounts/user-audit.js';
import { LoginAccountsRepository } from '../../accounts/login-accounts.repository.js';
import { LoginBackoffService } from '../../login-backoff/login-backoff.service.js';
import { TwoStepSignIn } from '../../mfa/two-step-sign-in.service.js';
import { type ClientInfo, SessionsService, TWO_STEP_LOGIN } from '../../sessions/sessions.service.js';
import { SURFACES, surfaceAdmits } from '../../sessions/surface.js';
import { NewDeviceAlert } from '../new-device-alert.js';
import type { TokenResponse } from '../token-response.js';

/** A wrong code, thrown out of the transaction so that it writes nothing. */
class WrongCode extends Error {}

/**
 * The second step of a two-step sign-in (contract §12): the password step's mfaToken and a code
 * (TOTP or recovery code) answer what login answers, the session carrying the password step's
 * device and `amr` ["pwd","otp"]. An unknown, used, expired or retired mfaToken is 401
 * AUTH_MFA_TOKEN_INVALID; a wrong code 401 AUTH_MFA_CODE_INVALID, counted on the mfaToken (the
 * fifth retires it) and toward the email's back-off (contract §9), during which the step is 429.
 * Its login, failed login and back-off are audited like the password step's (contract §13).
 */
@Injectable()
export class LoginMfa {
  constructor(
    private readonly accounts: LoginAccountsRepository,
    private readonly twoStep: TwoStepSignIn,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly newDeviceAlert: NewDeviceAlert,
    private readonly backoff: LoginBackoffService,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(body: LoginMfaBody, client: ClientInfo): Promise<TokenResponse> {
    const challenge = await this.twoStep.liveChallenge(body.mfaToken, new Date());
    const account = challenge && (await this.accounts.findLiveAccountById(challenge.userId));
    if (!challenge || !account || !surfaceAdmits(SURFACES.admin, account.user.role)) throw new AppError('AUTH_MFA_TOKEN_INVALID');
    const { user } = account;
    const device = { deviceId: challenge.deviceId ?? undefined, deviceType: challenge.deviceType ?? undefined, deviceName: challenge.deviceName ?? undefined };
    const tokens = await this.backoff.attempt(
      user.email,
      async () => {
        try {
          return await this.unitOfWork.run(async (tx) => {
            const now = new Date();
            if ((await this.twoStep.completeChallenge(tx, challenge, user, body.code, now)) === null) throw new WrongCode();
            if (user.banned) throw new AppError('AUTH_ACCOUNT_BANNED');
            const opened = await this.sessions.start(user, SURFACES.admin, device, client, tx, TWO_STEP_LOGIN);
            await this.newDeviceAlert.onLogin(tx, user, device, opened.deviceIsNew, now);
            await this.auditSignIn(tx, user, 'auth.login');
            return opened.tokens;
          });
        } catch (error) {
          if (error instanceof WrongCode) return undefined;
          throw error;
        }
      },
      async (tx, backoffStarted) => {
        await this.auditSignIn(tx, user, 'auth.login_failed');
        if (backoffStarted) await this.auditSignIn(tx, user, 'auth.backoff');
      },
    );
    if (!tokens) {
      await this.twoStep.countWrongCode(challenge);
      throw new AppError('AUTH_MFA_CODE_INVALID', undefined, { status: 401 });
    }
    return { ...tokens, user: toProfile(user, true) };
  }

  /** Contract §13: the second step's sign-in events, named by the account whose mfaToken it is (always an admin-surface one). */
  private async auditSignIn(tx: Transaction, user: { publicId: string; role: Role }, action: 'auth.login' | 'auth.login_failed' | 'auth.backoff'): Promise<void> {
    await this.audit.record(tx, { action, target: userTarget(user.publicId), actor: userActor(user) });
  }
}
