import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { decodeEvent, Inbox } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { STORAGE, type Storage } from '../storage/storage.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { MediaErasureRepository } from './media-erasure.repository.js';

/**
 * Media's step of an erasure (contract §11), from identity's `identity.user_erased`: every file the
 * account uploaded is deleted from storage (whichever driver), then its records go with the inbox
 * row in one transaction, which frees its quota. Deleting an object that is already gone is no
 * error, so a message redelivered after a crash between the two steps finishes the work; an
 * object the store refuses to delete throws, and the message is retried later (a media or store
 * that was down catches up). Logs name the message and counts only.
 */
@Injectable()
export class MediaErasureService {
  private readonly logger = new Logger('MediaErasure');

  constructor(
    private readonly erasure: MediaErasureRepository,
    @Inject(STORAGE) private readonly storage: Storage,
    private readonly inbox: Inbox,
    private readonly uploads: UploadsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async handle(body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(EVENT_TYPES.userErased, body, messageId);
    const { userId } = received.event.payload as EventPayload<typeof EVENT_TYPES.userErased>;
    // Under the owner's lock: an upload reserving its record meanwhile either committed first (listed
    // here) or finds its session revoked (UploadsService.reserve), the erasure having revoked it first.
    const keys = await this.unitOfWork.run(async (tx) => {
      await this.uploads.lockOwner(userId, tx);
      return this.erasure.keysOf(tx, userId);
    });
    for (const key of keys) await this.storage.delete(key);
    let forgotten = 0;
    const fresh = await this.inbox.once(received, async (tx) => {
      forgotten = await this.erasure.forget(tx, userId, keys);
    });
    this.logger.log({ messageId: received.messageId, duplicate: !fresh, files: keys.length, forgotten, msg: 'erasure applied to media' });
  }
}
