import { FILES_OF_ACCOUNT } from '@school/contracts';
import { eventServiceModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import type { MediaConfig } from './config.js';
import { ERASURE_EVENTS, ERASURE_PREFETCH, ErasureModule } from './erasure/erasure.module.js';
import { PrismaClient } from './generated/prisma/client.js';
import { mediaDocument } from './openapi.js';
import { uploadLimitsOf } from './uploads/upload-limits.js';
import { UploadsModule } from './uploads/uploads.module.js';

// The client address the gateway vouches for is named by each audit entry.
export const AppModule = eventServiceModule('media', PrismaClient, (config: MediaConfig) => ({
  // Audit entries of administrators' uploads, recorded with the upload's record (contract §13).
  outbox: true,
  audit: true,
  // Answers identity's question for a person's copy of their data (contract §11).
  serves: [FILES_OF_ACCOUNT],
  // Learns identity's erasures (contract §11) through its own durable queue: a media that was down catches up.
  consumes: { ...ERASURE_EVENTS, prefetch: ERASURE_PREFETCH },
  modules: [UploadsModule, ErasureModule, OpenApiModule.forRoot(mediaDocument(uploadLimitsOf(config)))],
}));
