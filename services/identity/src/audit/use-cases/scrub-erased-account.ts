import { Injectable, Logger } from '@nestjs/common';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { decodeEvent, Inbox } from '@school/messaging';
import { AuditEntriesRepository } from '../audit-entries.repository.js';
import { type AuditChanges, withoutPersonalFields } from '../erasure-scrub.js';

type UserErased = EventPayload<'identity.user_erased'>;

/**
 * Contract §13 with §11, on `identity.user_erased`: the entries the erased account acted in keep its
 * publicId and lose its email, and the `changes` of entries that target it lose its personal fields.
 * The account is remembered (by publicId only) so an entry naming it that arrives later is stored
 * scrubbed. Through the inbox, once per event.
 */
@Injectable()
export class ScrubErasedAccount {
  private readonly logger = new Logger('AuditStore');

  constructor(
    private readonly entries: AuditEntriesRepository,
    private readonly inbox: Inbox,
  ) {}

  async handle(body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(EVENT_TYPES.userErased, body, messageId);
    const erased = received.event.payload as UserErased;
    const publicId = erased.userId.toLowerCase();
    await this.inbox.once(received, async (tx) => {
      await this.entries.lockAccounts(tx, [publicId], 'exclusive');
      await this.entries.markErased(tx, publicId, new Date(erased.erasedAt));
      const emails = await this.entries.forgetActorEmail(tx, publicId);
      let changes = 0;
      for (const entry of await this.entries.entriesTargetingUser(tx, publicId)) {
        const before = entry.changes as AuditChanges;
        const after = withoutPersonalFields(before);
        if (Object.keys(after).length === Object.keys(before).length) continue;
        await this.entries.replaceChanges(tx, entry.id, after);
        changes += 1;
      }
      this.logger.log({ userId: publicId, emails, changes, msg: 'audit entries of an erased account scrubbed' });
    });
  }
}
