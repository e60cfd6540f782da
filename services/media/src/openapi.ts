import { SERVICE_ROUTES } from '@school/contracts';
import { serviceDocument } from '@school/openapi';
import type { UploadLimits } from './uploads/upload-limits.js';

/** This service's part of the API, served at GET /openapi.json for the gateway to merge; the size limits are its configuration's. */
export function mediaDocument(limits: UploadLimits) {
  return serviceDocument('media', SERVICE_ROUTES.media, { maxFileBytes: { admin: limits.adminMaxFileBytes, mobile: limits.mobileMaxFileBytes } });
}
