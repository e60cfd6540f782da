import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { Authenticated, CurrentPrincipal } from '@school/auth/nest';
import type { Principal } from '@school/auth';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { SURFACES } from '../sessions/surface.js';
import { AuthService } from './auth.service.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import type { ClientInfo } from '../sessions/sessions.service.js';
import { RequestClient } from './client-info.js';
import { type LoginBody, loginBody } from './dto/login.dto.js';
import { type RefreshBody, refreshBody } from './dto/refresh.dto.js';
import { type SetPasswordBody, setPasswordBody } from './dto/set-password.dto.js';

/** Spec §4.1, administrator surface (admin and staff). */
@Controller('api/auth')
export class AdminAuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login/email')
  @HttpCode(200)
  async login(@Body(new ZodPipe(loginBody)) body: LoginBody, @RequestClient() client: ClientInfo) {
    return success(AUTH_MESSAGES.login, await this.auth.login(SURFACES.admin, body, client));
  }

  @Post('refresh')
  @HttpCode(200)
  async refresh(@Body(new ZodPipe(refreshBody)) body: RefreshBody) {
    return success(AUTH_MESSAGES.refresh, await this.auth.refresh(SURFACES.admin, body.refreshToken));
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

  @Get('permissions')
  @Authenticated()
  permissions(@CurrentPrincipal() principal: Principal) {
    return success(AUTH_MESSAGES.permissions, this.auth.permissions(principal));
  }

  @Post('password/set')
  @HttpCode(200)
  @Authenticated()
  async setPassword(@CurrentPrincipal() principal: Principal, @Body(new ZodPipe(setPasswordBody)) body: SetPasswordBody) {
    await this.auth.setPassword(principal, body);
    return success(AUTH_MESSAGES.passwordSet, null);
  }
}
