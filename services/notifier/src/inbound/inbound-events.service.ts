import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { withDeadline } from '@school/async';
import { decodeEvent } from '@school/messaging';
import type { EventType } from '@school/contracts';
import { InboxRepository } from './inbox.repository.js';
import { NotificationDispatcher } from './notification-dispatcher.js';

/** Redis unreachable must not hold a message (and a database transaction) for ever. */
const EFFECTS_TIMEOUT_MS = 10_000;
const INBOX_RETENTION_DAYS = 30;
const INBOX_PRUNE_INTERVAL_MS = 3600_000;

/**
 * Turns each event of `notifier.events` into its notifications exactly once per message id. The
 * events arrive through InboundEventsController on the AMQP event transport (manual acks, prefetch
 * AMQP_PREFETCH): the message is acked once `handle` resolved, that is after the commit below.
 *
 * Per message: validate (poison -> DeadLetterError -> dead-letter queue, reason logged); then, in ONE
 * Postgres transaction: insert the message id into the inbox (a conflict means "already done":
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
export class InboundEventsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InboundEvents');
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly inbox: InboxRepository,
    private readonly dispatcher: NotificationDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.pruneTimer = setInterval(() => void this.prune(), INBOX_PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.pruneTimer);
  }

  /** Resolves once the event's effects are committed (or it was a duplicate): the transport then acks. */
  async handle(type: EventType, body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(type, body, messageId);
    const fresh = await this.inbox.once(received.messageId, received.event.type, () =>
      withDeadline(this.dispatcher.dispatch(received), EFFECTS_TIMEOUT_MS, 'enqueueing the notifications'),
    );
    if (!fresh) this.logger.debug({ messageId: received.messageId, type: received.event.type, msg: 'duplicate message skipped' });
  }

  private async prune(): Promise<void> {
    try {
      const deleted = await this.inbox.pruneOlderThan(INBOX_RETENTION_DAYS);
      if (deleted > 0) this.logger.log({ deleted, msg: 'pruned old inbox rows' });
    } catch (error) {
      this.logger.warn({ err: error, msg: 'inbox prune failed' });
    }
  }
}
