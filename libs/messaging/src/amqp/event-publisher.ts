import type { Channel, ChannelWrapper } from 'amqp-connection-manager';
import type { Message } from 'amqplib';
import type { MessagingLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { BrokerNames } from '../topology.js';
import type { AmqpConnection } from './amqp-connection.js';
import { declareEventsExchange } from './topology-setup.js';

export interface OutgoingEvent {
  /** Becomes the AMQP `messageId`: the outbox row id, the notifier's deduplication key. */
  id: string;
  /** The event type, used as routing key and `type` property. */
  type: string;
  /** The JSON body, already serialised. */
  body: Buffer;
  /** W3C trace context of the business transaction that recorded the event. */
  traceparent?: string | null;
  occurredAt: Date;
}

export interface EventPublisherOptions {
  names: Pick<BrokerNames, 'exchange'>;
  /** A publish not confirmed by the broker within this time fails (and is retried by the caller). */
  confirmTimeoutMs?: number;
  logger?: MessagingLogger;
}

/**
 * Publishes to the `events` topic exchange on a confirm channel: persistent, JSON, `messageId`,
 * `traceparent` header. `publish` resolves only once the broker has confirmed the message.
 *
 * Its setup declares only the exchange: each consumer declares its own queue. Events are published
 * `mandatory`, so one that no queue is bound for (no consumer of its type has ever run) comes back
 * from the broker and `publish` rejects with UnroutableEventError: the outbox keeps the row and
 * retries it, rather than the broker confirming and dropping it.
 */
export class EventPublisher {
  private readonly channel: ChannelWrapper;
  /** Message ids the broker returned as unroutable; the return always precedes the confirm. */
  private readonly returned = new Set<string>();
  private readonly exchange: string;
  private readonly confirmTimeoutMs: number;

  constructor(connection: AmqpConnection, options: EventPublisherOptions) {
    this.exchange = options.names.exchange;
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;
    const logger = options.logger ?? silentLogger;
    this.channel = connection.createChannel({
      name: 'event-publisher',
      confirm: true,
      setup: async (channel: Channel) => {
        // A channel the broker closes (e.g. 404 publishing to an exchange deleted behind our back)
        // is not re-opened until the next connect: force one, which re-declares the exchange.
        channel.on('error', (error: Error) => {
          logger.warn({ err: error, exchange: this.exchange }, 'AMQP publisher channel closed by the broker; reconnecting');
          connection.recover();
        });
        channel.on('return', (message: Message) => {
          const id = message.properties.messageId as unknown;
          if (typeof id === 'string') this.returned.add(id);
        });
        await declareEventsExchange(channel, options.names);
      },
    });
    // A failed setup (e.g. the exchange exists with other settings) leaves the channel closed until
    // the next connect: log it and reconnect (spaced out), never crash on an unhandled 'error'.
    this.channel.on('error', (error: Error) => {
      logger.error({ err: error, exchange: this.exchange }, 'AMQP publisher setup failed; reconnecting');
      connection.recover();
    });
  }

  async publish(event: OutgoingEvent): Promise<void> {
    this.returned.delete(event.id);
    await this.channel.publish(this.exchange, event.type, event.body, {
      persistent: true,
      mandatory: true,
      contentType: 'application/json',
      contentEncoding: 'utf-8',
      messageId: event.id,
      type: event.type,
      timestamp: Math.floor(event.occurredAt.getTime() / 1000),
      headers: event.traceparent ? { traceparent: event.traceparent } : {},
      timeout: this.confirmTimeoutMs,
    });
    if (this.returned.delete(event.id)) throw new UnroutableEventError(event.type);
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
  }
}

/** The broker had no queue bound for the event's type: no consumer of it has declared its queue yet. */
export class UnroutableEventError extends Error {
  override readonly name = 'UnroutableEventError';

  constructor(readonly eventType: string) {
    super(`no queue is bound for routing key "${eventType}"`);
  }
}
