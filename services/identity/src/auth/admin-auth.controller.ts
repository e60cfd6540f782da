import { Controller } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { ADMIN_AUTH_ROUTES as ROUTES, type ResponseOf } from '@school/contracts';
import { success } from '@school/http';
import { Route } from '@school/service';
import { SURFACES } from '../sessions/surface.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import { AuthService } from './auth.service.js';
import { OwnSessionsService } from './own-sessions.service.js';
import { surfaceAuthHandlers } from './surface-auth.controller.js';
import { Login } from './use-cases/login.js';
import { RefreshTokens } from './use-cases/refresh-tokens.js';
import { SetPassword } from './use-cases/set-password.js';

/** Spec §4.1, the routes of ADMIN_AUTH_ROUTES (admin and staff); its JWT routes refuse mobile tokens (contract §4). */
@Controller()
export class AdminAuthController extends surfaceAuthHandlers(ROUTES, SURFACES.admin) {
  constructor(auth: AuthService, ownSessions: OwnSessionsService, login: Login, refresh: RefreshTokens, setPassword: SetPassword) {
    super(auth, ownSessions, login, refresh, setPassword);
  }

  @Route(ROUTES.permissions)
  permissions(@CurrentPrincipal() principal: Principal): ResponseOf<typeof ROUTES.permissions> {
    return success(AUTH_MESSAGES.permissions, this.auth.permissions(principal));
  }
}
