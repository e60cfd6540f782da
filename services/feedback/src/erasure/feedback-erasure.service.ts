import { Injectable, Logger } from '@nestjs/common';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { decodeEvent, Inbox } from '@school/messaging';
import { FeedbackErasureRepository } from './feedback-erasure.repository.js';

/**
 * Feedback's step of an erasure (contract §11), from identity's `identity.user_erased`, once per
 * message (inbox) and in one transaction: the account's submissions keep their category, subject,
 * message and date but no longer link to it; guest submissions that gave its email (found by the
 * event's digest, docs/decisions/0009-erasure-saga.md) lose name, email and phone; the outbox rows
 * of those submissions go. Logs name the message only.
 */
@Injectable()
export class FeedbackErasureService {
  private readonly logger = new Logger('FeedbackErasure');

  constructor(
    private readonly erasure: FeedbackErasureRepository,
    private readonly inbox: Inbox,
  ) {}

  async handle(body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(EVENT_TYPES.userErased, body, messageId);
    const { userId, emailDigest } = received.event.payload as EventPayload<typeof EVENT_TYPES.userErased>;
    let unlinked = 0;
    const fresh = await this.inbox.once(received, async (tx) => {
      unlinked = await this.erasure.unlink(tx, userId, emailDigest);
      await this.erasure.forgetEvents(tx, userId, emailDigest);
    });
    this.logger.log({ messageId: received.messageId, duplicate: !fresh, unlinked, msg: 'erasure applied to feedback' });
  }
}
