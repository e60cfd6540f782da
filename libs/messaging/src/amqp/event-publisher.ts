import type { Channel, ChannelWrapper } from 'amqp-connection-manager';
import type { MessagingLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { NOTIFIER_BINDINGS, type BrokerNames } from '../topology.js';
import type { AmqpConnection } from './amqp-connection.js';
import { declareConsumerTopology } from './topology-setup.js';

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
  names: BrokerNames;
  /** A publish not confirmed by the broker within this time fails (and is retried by the caller). */
  confirmTimeoutMs?: number;
  logger?: MessagingLogger;
}

/**
 * Publishes to the `events` topic exchange on a confirm channel: persistent, JSON, `messageId`,
 * `traceparent` header. `publish` resolves only once the broker has confirmed the message.
 *
 * Its setup declares the whole topology, the notifier's queue included: a message the exchange
 * cannot route is confirmed and dropped, so a producer started before any notifier ever ran
 * would otherwise lose its first events. Declaring is idempotent (same arguments everywhere).
 */
export class EventPublisher {
  private readonly channel: ChannelWrapper;
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
        await declareConsumerTopology(channel, options.names, { bindings: NOTIFIER_BINDINGS, quorum: connection.supportsQuorumQueues() });
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
    await this.channel.publish(this.exchange, event.type, event.body, {
      persistent: true,
      contentType: 'application/json',
      contentEncoding: 'utf-8',
      messageId: event.id,
      type: event.type,
      timestamp: Math.floor(event.occurredAt.getTime() / 1000),
      headers: event.traceparent ? { traceparent: event.traceparent } : {},
      timeout: this.confirmTimeoutMs,
    });
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
  }
}
