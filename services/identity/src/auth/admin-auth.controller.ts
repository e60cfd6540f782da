import { Controller, Get } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { Authenticated, CurrentPrincipal, TokenSurface } from '@school/auth/nest';
import { success } from '@school/http';
import { SURFACES } from '../sessions/surface.js';
import { AUTH_MESSAGES } from './auth-messages.js';
import { SurfaceAuthController } from './surface-auth.controller.js';

/** Spec §4.1, administrator surface (admin and staff); its JWT routes refuse mobile tokens (contract §4). */
@Controller('api/auth')
@TokenSurface(SURFACES.admin)
export class AdminAuthController extends SurfaceAuthController {
  protected readonly surface = SURFACES.admin;

  @Get('permissions')
  @Authenticated()
  permissions(@CurrentPrincipal() principal: Principal) {
    return success(AUTH_MESSAGES.permissions, this.auth.permissions(principal));
  }
}
