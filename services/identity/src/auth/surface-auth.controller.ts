import { Param } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { type BodyOf, type ResponseOf, type SurfaceAuthRoutes } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import type { ClientInfo } from '../sessions/sessions.service.js';
import type { Surface } from '../sessions/surface.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import type { AuthService } from './auth.service.js';
import { RequestClient } from './client-info.js';
import type { OwnSessionsService } from './own-sessions.service.js';
import type { Login } from './use-cases/login.js';
import type { RefreshTokens } from './use-cases/refresh-tokens.js';
import type { SetPassword } from './use-cases/set-password.js';

/** The handlers both surfaces share (spec §4.1 and §4.2), for the routes of one surface's manifest; each surface's controller extends them. */
export function surfaceAuthHandlers(routes: SurfaceAuthRoutes, surface: Surface) {
  abstract class SurfaceAuthHandlers {
    constructor(
      protected readonly auth: AuthService,
      private readonly ownSessions: OwnSessionsService,
      private readonly loginUseCase: Login,
      private readonly refreshUseCase: RefreshTokens,
      private readonly setPasswordUseCase: SetPassword,
    ) {}

    @Route(routes.login)
    async login(@RouteBody() body: BodyOf<typeof routes.login>, @RequestClient() client: ClientInfo): Promise<ResponseOf<typeof routes.login>> {
      return success(AUTH_MESSAGES.login, await this.loginUseCase.execute(surface, body, client));
    }

    @Route(routes.refresh)
    async refresh(@RouteBody() body: BodyOf<typeof routes.refresh>): Promise<ResponseOf<typeof routes.refresh>> {
      return success(AUTH_MESSAGES.refresh, await this.refreshUseCase.execute(surface, body.refreshToken));
    }

    @Route(routes.logout)
    async logout(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof routes.logout>> {
      await this.auth.logout(principal);
      return success(AUTH_MESSAGES.logout, null);
    }

    @Route(routes.me)
    async me(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof routes.me>> {
      return success(AUTH_MESSAGES.me, await this.auth.me(principal));
    }

    @Route(routes.setPassword)
    async setPassword(@CurrentPrincipal() principal: Principal, @RouteBody() body: BodyOf<typeof routes.setPassword>): Promise<ResponseOf<typeof routes.setPassword>> {
      await this.setPasswordUseCase.execute(principal, body);
      return success(AUTH_MESSAGES.passwordSet, null);
    }

    @Route(routes.sessions)
    async sessions(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof routes.sessions>> {
      return success(AUTH_MESSAGES.sessions, await this.ownSessions.list(principal));
    }

    @Route(routes.endSession)
    async endSession(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ResponseOf<typeof routes.endSession>> {
      await this.ownSessions.end(principal, id);
      return success(AUTH_MESSAGES.sessionEnded, null);
    }

    @Route(routes.endOtherSessions)
    async endOtherSessions(@CurrentPrincipal() principal: Principal): Promise<ResponseOf<typeof routes.endOtherSessions>> {
      return success(AUTH_MESSAGES.otherSessionsEnded, await this.ownSessions.endOthers(principal));
    }
  }
  return SurfaceAuthHandlers;
}
