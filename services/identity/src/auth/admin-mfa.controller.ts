import { Controller } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { ADMIN_AUTH_ROUTES as ROUTES, type BodyOf, type ResponseOf } from '@school/contracts';
import { AppError, success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import { type LoginAccount, LoginAccountsRepository } from '../accounts/login-accounts.repository.js';
import { TwoStepSignIn } from '../mfa/two-step-sign-in.service.js';
import type { ClientInfo } from '../sessions/sessions.service.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import { RequestClient } from './client-info.js';
import { LoginMfa } from './use-cases/login-mfa.js';

/** Contract §12, two-step sign-in on the administrator surface: the second login step and the caller's own settings. */
@Controller()
export class AdminMfaController {
  constructor(
    private readonly accounts: LoginAccountsRepository,
    private readonly twoStep: TwoStepSignIn,
    private readonly loginMfa: LoginMfa,
  ) {}

  @Route(ROUTES.loginMfa)
  async login(@RouteBody() body: BodyOf<typeof ROUTES.loginMfa>, @RequestClient() client: ClientInfo): Promise<ResponseOf<typeof ROUTES.loginMfa>> {
    return success(AUTH_MESSAGES.login, await this.loginMfa.execute(body, client));
  }

  @Route(ROUTES.mfaStatus)
  async status(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof ROUTES.mfaStatus>> {
    const { user } = await this.callerOf(principal);
    return success(AUTH_MESSAGES.mfaStatus, await this.twoStep.status(user.id));
  }

  @Route(ROUTES.mfaStart)
  async start(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof ROUTES.mfaStart>> {
    const { user } = await this.callerOf(principal);
    return success(AUTH_MESSAGES.mfaStarted, await this.twoStep.start(user));
  }

  @Route(ROUTES.mfaConfirm)
  async confirm(@CurrentPrincipal() principal: Principal, @RouteBody() body: BodyOf<typeof ROUTES.mfaConfirm>): Promise<ResponseOf<typeof ROUTES.mfaConfirm>> {
    const { user } = await this.callerOf(principal);
    return success(AUTH_MESSAGES.mfaEnabled, await this.twoStep.confirm(user, principal.sessionId, body.code));
  }

  @Route(ROUTES.mfaRecoveryCodes)
  async recoveryCodes(@CurrentPrincipal() principal: Principal, @RouteBody() body: BodyOf<typeof ROUTES.mfaRecoveryCodes>): Promise<ResponseOf<typeof ROUTES.mfaRecoveryCodes>> {
    const { user } = await this.callerOf(principal);
    return success(AUTH_MESSAGES.recoveryCodesReplaced, await this.twoStep.regenerateRecoveryCodes(user, body.code));
  }

  @Route(ROUTES.mfaDisable)
  async disable(@CurrentPrincipal() principal: Principal, @RouteBody() body: BodyOf<typeof ROUTES.mfaDisable>): Promise<ResponseOf<typeof ROUTES.mfaDisable>> {
    const { user, passwordHash } = await this.callerOf(principal);
    await this.twoStep.disable(user, passwordHash, body.password, body.code);
    return success(AUTH_MESSAGES.mfaDisabled, null);
  }

  /** The verified caller's live account; a token of a since-deleted user is no longer valid. */
  private async callerOf(principal: Principal): Promise<LoginAccount> {
    const account = await this.accounts.findCallerAccount(principal.userId);
    if (!account) throw new AppError('AUTH_UNAUTHENTICATED');
    return account;
  }
}
