import { Inject, Injectable, Logger } from '@nestjs/common';
import { withDeadline } from '@school/async';
import { decodeEvent, Inbox } from '@school/messaging';
import type { EventType } from '@school/contracts';
import { APP_CONFIG } from '@school/service';
import type { NotifierConfig } from '../config.js';
import { NotificationDispatcher } from './notification-dispatcher.js';

/** What the inbox transaction keeps for itself of its timeout, besides the effects. */
const COMMIT_MARGIN_MS = 1_000;

/**
 * Turns each event of `notifier.events` into its notifications exactly once per message id. The
 * events arrive through InboundEventsController on the AMQP event transport (manual acks, prefetch
 * AMQP_PREFETCH): the message is acked once `handle` resolved, that is after the commit below.
 *
 * Per message: validate (poison -> DeadLetterError -> dead-letter queue, reason logged); then, in ONE
 * unit of work (`Inbox.once`): insert the message id into the inbox (a conflict means "already done":
 * skip), enqueue the BullMQ job(s) with ids derived from the message id, publish the live
 * notification; commit; then ack.
 *
 * Enqueueing is not transactional with Postgres. The crash windows and why none sends twice:
 * 1. Crash before the inbox insert, or after it but before any enqueue: the transaction rolls
 *    back, nothing was sent, the message is redelivered and handled normally.
 * 2. Crash after the job was enqueued but before the commit: the inbox row is rolled back, the
 *    message is redelivered and enqueued again with the same job id, which BullMQ ignores while
 *    the first job exists (completed jobs are kept 24 h): still one email. The live notification
 *    may go out a second time; it carries the message id as SSE `id:` so a client can drop it.
 * 3. Crash after the commit but before the ack: the message is redelivered, the inbox insert
 *    conflicts, the handler skips all effects and acks.
 * 4. Ack lost (channel closed): same as 3.
 * 5. Worker crash while sending: BullMQ's lock expires and the job runs again (at-least-once
 *    delivery to SMTP; the Message-ID is stable so a receiving server can recognise a repeat).
 * The transaction holds no lock other than its own inbox row, and a second delivery of the same
 * id (another replica) waits on that row, then sees it committed and skips.
 */
@Injectable()
export class InboundEventsService {
  private readonly logger = new Logger('InboundEvents');
  /** Redis unreachable must not hold a message, nor its transaction, past the transaction's timeout. */
  private readonly effectsTimeoutMs: number;

  constructor(
    private readonly inbox: Inbox,
    private readonly dispatcher: NotificationDispatcher,
    @Inject(APP_CONFIG) config: NotifierConfig,
  ) {
    this.effectsTimeoutMs = Math.max(config.DATABASE_TRANSACTION_TIMEOUT_MS - COMMIT_MARGIN_MS, COMMIT_MARGIN_MS);
  }

  /** Resolves once the event's effects are committed (or it was a duplicate): the transport then acks. */
  async handle(type: EventType, body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(type, body, messageId);
    const fresh = await this.inbox.once(received, () => withDeadline(this.dispatcher.dispatch(received), this.effectsTimeoutMs, 'enqueueing the notifications'));
    if (!fresh) this.logger.debug({ messageId: received.messageId, type: received.event.type, msg: 'duplicate message skipped' });
  }
}
