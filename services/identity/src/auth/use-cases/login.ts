import { Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { AuditRecorder } from '@school/messaging';
import { type Transaction, UnitOfWork } from '@school/service';
import { toProfile } from '../../accounts/profile.js';
import { userActor, userTarget } from '../../accounts/user-audit.js';
import { type LoginAccount, LoginAccountsRepository } from '../../accounts/login-accounts.repository.js';
import { LoginBackoffService } from '../../login-backoff/login-backoff.service.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { type ClientInfo, SessionsService } from '../../sessions/sessions.service.js';
import { isAdminSurfaceAccount, type Surface, SURFACES, surfaceAdmits } from '../../sessions/surface.js';
import type { AdminLoginResponseDto, LoginBody } from '@school/contracts';
import { TwoStepSignIn } from '../../mfa/two-step-sign-in.service.js';
import { NewDeviceAlert } from '../new-device-alert.js';
import type { TokenResponse } from '../token-response.js';

/**
 * Email and password login on one surface (spec §4.1, §4.2, contract §4). Unknown email,
 * soft-deleted account, no password, wrong password and a role the surface does not admit all
 * answer the same 401 after the same argon2id work; a banned account is told so only after its
 * correct password. The check runs under the email's back-off (contract §9): a wrong password
 * counts as a failure, a correct one clears the count. The session and the new-device check share one transaction.
 * An administrator-surface account's login, failed login and back-off are audited (contract §13), a
 * failure in the transaction that counts it, so its entry commits while the login answers an error.
 * An admin-surface account with two-step sign-in on gets an mfaToken instead of tokens (contract
 * §12); its correct password then leaves the back-off count as it was, for the second step to settle.
 */
@Injectable()
export class Login {
  constructor(
    private readonly accounts: LoginAccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly newDeviceAlert: NewDeviceAlert,
    private readonly backoff: LoginBackoffService,
    private readonly audit: AuditRecorder,
    private readonly twoStep: TwoStepSignIn,
  ) {}

  async execute(surface: Surface, body: LoginBody, client: ClientInfo): Promise<TokenResponse | AdminLoginResponseDto> {
    let found: LoginAccount | null = null;
    const checked = await this.backoff.attempt(
      body.email,
      async () => {
        found = await this.accounts.findLoginAccount(body.email);
        const caller = client.ip ?? undefined;
        const passwordMatches = found?.passwordHash
          ? await this.hasher.verify(found.passwordHash, body.password, caller, client.abandoned)
          : await this.hasher.verifyDecoy(body.password, caller, client.abandoned);
        if (!found || !passwordMatches || !surfaceAdmits(surface, found.user.role)) return undefined;
        return { account: found, secondStep: surface === SURFACES.admin && (await this.twoStep.isOn(found.user.id)) };
      },
      (tx, backoffStarted) => this.auditFailure(tx, found, backoffStarted),
      ({ secondStep }) => !secondStep,
    );
    if (!checked) throw new AppError('AUTH_INVALID_CREDENTIALS');
    const { account, secondStep } = checked;
    if (account.user.banned) throw new AppError('AUTH_ACCOUNT_BANNED');
    if (secondStep) return this.twoStep.openChallenge(account.user, body.deviceInfo);
    const tokens = await this.unitOfWork.run(async (tx) => {
      const opened = await this.sessions.start(account.user, surface, body.deviceInfo, client, tx);
      await this.newDeviceAlert.onLogin(tx, account.user, body.deviceInfo, opened.deviceIsNew, new Date());
      await this.auditSignIn(tx, account, 'auth.login');
      return opened.tokens;
    });
    return { ...tokens, user: toProfile(account.user, true) };
  }

  private async auditFailure(tx: Transaction, found: LoginAccount | null, backoffStarted: boolean): Promise<void> {
    await this.auditSignIn(tx, found, 'auth.login_failed');
    if (backoffStarted) await this.auditSignIn(tx, found, 'auth.backoff');
  }

  /** The account whose email was given acts; a customer's sign-in events are not recorded, nor an unknown email's. */
  private async auditSignIn(tx: Transaction, account: LoginAccount | null, action: 'auth.login' | 'auth.login_failed' | 'auth.backoff'): Promise<void> {
    if (!account || !isAdminSurfaceAccount(account.user)) return;
    await this.audit.record(tx, { action, target: userTarget(account.user.publicId), actor: userActor(account.user) });
  }
}
