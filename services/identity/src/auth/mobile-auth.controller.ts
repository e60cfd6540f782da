import { Controller } from '@nestjs/common';
import { TokenSurface } from '@school/auth/nest';
import { SURFACES } from '../sessions/surface.js';
import { SurfaceAuthController } from './surface-auth.controller.js';

/** Spec §4.2, customer mobile surface (customers only); its JWT routes refuse admin-surface tokens (contract §4). */
@Controller('api/mobile/auth')
@TokenSurface(SURFACES.mobile)
export class MobileAuthController extends SurfaceAuthController {
  protected readonly surface = SURFACES.mobile;
}
