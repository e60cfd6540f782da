import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { eventsController, handledBy, InboxModule } from '@school/messaging/nest';
import { UploadsModule } from '../uploads/uploads.module.js';
import { MediaErasureRepository } from './media-erasure.repository.js';
import { MediaErasureService } from './media-erasure.service.js';

/** What media consumes (`media.events`, its retry queues and dead-letter queue). */
export const ERASURE_EVENTS = { consumer: 'media', bindings: [EVENT_TYPES.userErased] } as const;

/** Each erasure deletes every object of an account: one at a time per replica keeps the store's load small. */
export const ERASURE_PREFETCH = 1;

/** Contract §11 in media: an erased account's files leave storage. */
@Module({
  imports: [InboxModule, UploadsModule],
  controllers: [eventsController({ [EVENT_TYPES.userErased]: handledBy(MediaErasureService, 'handle') })],
  providers: [MediaErasureRepository, MediaErasureService],
})
export class ErasureModule {}
