import { Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { UnitOfWork } from '@school/service';
import { toProfile } from '../../accounts/profile.js';
import { UsersRepository } from '../../accounts/users.repository.js';
import { LoginBackoffService } from '../../login-backoff/login-backoff.service.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { type ClientInfo, SessionsService } from '../../sessions/sessions.service.js';
import { type Surface, SURFACES, surfaceAdmits } from '../../sessions/surface.js';
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
 * An admin-surface account with two-step sign-in on gets an mfaToken instead of tokens (contract
 * §12); its correct password then leaves the back-off count as it was, for the second step to settle.
 */
@Injectable()
export class Login {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly newDeviceAlert: NewDeviceAlert,
    private readonly backoff: LoginBackoffService,
    private readonly twoStep: TwoStepSignIn,
  ) {}

  async execute(surface: Surface, body: LoginBody, client: ClientInfo): Promise<TokenResponse | AdminLoginResponseDto> {
    const checked = await this.backoff.attempt(
      body.email,
      async () => {
        const found = await this.users.findLoginAccount(body.email);
        const caller = client.ip ?? undefined;
        const passwordMatches = found?.passwordHash
          ? await this.hasher.verify(found.passwordHash, body.password, caller, client.abandoned)
          : await this.hasher.verifyDecoy(body.password, caller, client.abandoned);
        if (!found || !passwordMatches || !surfaceAdmits(surface, found.user.role)) return undefined;
        return { account: found, secondStep: surface === SURFACES.admin && (await this.twoStep.isOn(found.user.id)) };
      },
      ({ secondStep }) => !secondStep,
    );
    if (!checked) throw new AppError('AUTH_INVALID_CREDENTIALS');
    const { account, secondStep } = checked;
    if (account.user.banned) throw new AppError('AUTH_ACCOUNT_BANNED');
    if (secondStep) return this.twoStep.openChallenge(account.user, body.deviceInfo);
    const tokens = await this.unitOfWork.run(async (tx) => {
      const issued = await this.sessions.start(account.user, surface, body.deviceInfo, client, tx);
      await this.newDeviceAlert.onLogin(tx, account.user, body.deviceInfo, new Date());
      return issued;
    });
    return { ...tokens, user: toProfile(account.user, true) };
  }
}
