import { Controller } from '@nestjs/common';
import { SURFACES } from '../sessions/surface.js';
import { SurfaceAuthController } from './surface-auth.controller.js';

/** Spec §4.2, customer mobile surface (customers only). */
@Controller('api/mobile/auth')
export class MobileAuthController extends SurfaceAuthController {
  protected readonly surface = SURFACES.mobile;
}
