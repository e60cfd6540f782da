import { Body, Delete, Get, HttpCode, Injectable, Param, Post } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { Authenticated, CurrentPrincipal } from '@school/auth/nest';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import type { ClientInfo } from '../sessions/sessions.service.js';
import type { Surface } from '../sessions/surface.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import { AuthService } from './auth.service.js';
import { RequestClient } from './client-info.js';
import { OwnSessionsService } from './own-sessions.service.js';
import { Login } from './use-cases/login.js';
import { RefreshTokens } from './use-cases/refresh-tokens.js';
import { SetPassword } from './use-cases/set-password.js';
import { type LoginBody, loginBody } from './dto/login.dto.js';
import { type RefreshBody, refreshBody } from './dto/refresh.dto.js';
import { type SetPasswordBody, setPasswordBody } from './dto/set-password.dto.js';

/** The routes both surfaces share (spec §4.1 and §4.2); a subclass names its prefix and surface. */
// @Injectable() only so the constructor's parameter types are emitted for the subclasses' injection.
@Injectable()
export abstract class SurfaceAuthController {
  protected abstract readonly surface: Surface;

  constructor(
    protected readonly auth: AuthService,
    private readonly ownSessions: OwnSessionsService,
    private readonly loginUseCase: Login,
    private readonly refreshUseCase: RefreshTokens,
    private readonly setPasswordUseCase: SetPassword,
  ) {}

  @Post('login/email')
  @HttpCode(200)
  async login(@Body(new ZodPipe(loginBody)) body: LoginBody, @RequestClient() client: ClientInfo) {
    return success(AUTH_MESSAGES.login, await this.loginUseCase.execute(this.surface, body, client));
  }

  @Post('refresh')
  @HttpCode(200)
  async refresh(@Body(new ZodPipe(refreshBody)) body: RefreshBody) {
    return success(AUTH_MESSAGES.refresh, await this.refreshUseCase.execute(this.surface, body.refreshToken));
  }

  @Delete('logout')
  @Authenticated()
  async logout(@CurrentPrincipal() principal: Principal) {
    await this.auth.logout(principal);
    return success(AUTH_MESSAGES.logout, null);
  }

  @Get('me')
  @Authenticated()
  async me(@CurrentPrincipal() principal: Principal) {
    return success(AUTH_MESSAGES.me, await this.auth.me(principal));
  }

  @Post('password/set')
  @HttpCode(200)
  @Authenticated()
  async setPassword(@CurrentPrincipal() principal: Principal, @Body(new ZodPipe(setPasswordBody)) body: SetPasswordBody) {
    await this.setPasswordUseCase.execute(principal, body);
    return success(AUTH_MESSAGES.passwordSet, null);
  }

  @Get('sessions')
  @Authenticated()
  async sessions(@CurrentPrincipal() principal: Principal) {
    return success(AUTH_MESSAGES.sessions, await this.ownSessions.list(principal));
  }

  @Delete('sessions/:id')
  @Authenticated()
  async endSession(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.ownSessions.end(principal, id);
    return success(AUTH_MESSAGES.sessionEnded, null);
  }

  @Delete('sessions')
  @Authenticated()
  async endOtherSessions(@CurrentPrincipal() principal: Principal) {
    return success(AUTH_MESSAGES.otherSessionsEnded, await this.ownSessions.endOthers(principal));
  }
}
