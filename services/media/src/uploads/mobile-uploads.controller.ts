import { Controller, Inject } from '@nestjs/common';
import { MOBILE_UPLOAD_ROUTES } from '@school/contracts';
import { UPLOAD_LIMITS, type UploadLimits } from './upload-limits.js';
import { surfaceUploadHandlers } from './upload-routes.js';
import { UploadsService } from './uploads.service.js';

/** Spec §4.5: the routes of MOBILE_UPLOAD_ROUTES (customer tokens only, contract §4), 5 MiB per file. */
@Controller()
export class MobileUploadsController extends surfaceUploadHandlers(MOBILE_UPLOAD_ROUTES, 'mobile') {
  constructor(uploads: UploadsService, @Inject(UPLOAD_LIMITS) limits: UploadLimits) {
    super(uploads, limits);
  }
}
