import { Controller, Inject } from '@nestjs/common';
import { RequireSurface } from '@school/auth/nest';
import { UPLOAD_LIMITS, type UploadLimits } from './upload-limits.js';
import { UploadRoutes } from './upload-routes.js';
import { UploadsService } from './uploads.service.js';

/** Spec §4.5: uploads of the customer surface (customer tokens only, contract §4), 5 MiB per file. */
@Controller('api/mobile/uploads')
@RequireSurface('mobile')
export class MobileUploadsController extends UploadRoutes {
  constructor(uploads: UploadsService, @Inject(UPLOAD_LIMITS) limits: UploadLimits) {
    super(uploads, limits, 'mobile');
  }
}
