import { Controller } from '@nestjs/common';
import { MOBILE_AUTH_ROUTES } from '@school/contracts';
import { SURFACES } from '../sessions/surface.js';
import { AuthService } from './auth.service.js';
import { OwnSessionsService } from './own-sessions.service.js';
import { surfaceAuthHandlers } from './surface-auth.controller.js';
import { Login } from './use-cases/login.js';
import { RefreshTokens } from './use-cases/refresh-tokens.js';
import { SetPassword } from './use-cases/set-password.js';

/** Spec §4.2, the routes of MOBILE_AUTH_ROUTES (customers only); its JWT routes refuse admin-surface tokens (contract §4). */
@Controller()
export class MobileAuthController extends surfaceAuthHandlers(MOBILE_AUTH_ROUTES, SURFACES.mobile) {
  constructor(auth: AuthService, ownSessions: OwnSessionsService, login: Login, refresh: RefreshTokens, setPassword: SetPassword) {
    super(auth, ownSessions, login, refresh, setPassword);
  }
}
