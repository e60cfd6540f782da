import { serviceDocument } from '@school/openapi';
import { uploadRoutes } from './uploads/uploads.docs.js';
import type { UploadLimits } from './uploads/upload-limits.js';

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export function mediaDocument(limits: UploadLimits) {
  return serviceDocument('media', [], {}, uploadRoutes(limits));
}
