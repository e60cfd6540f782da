import type { Channel, ChannelWrapper } from 'amqp-connection-manager';
import type { ConsumeMessage } from 'amqplib';
import { backoffDelay, sleep, type BackoffOptions } from '../backoff.js';
import type { MessagingLogger } from '../logger.js';
import type { BrokerNames } from '../topology.js';
import { contextFromHeaders, runInContext } from '../tracing.js';
import type { AmqpConnection } from './amqp-connection.js';
import { declareConsumerTopology } from './topology-setup.js';

/** A delivery as handlers see it. */
export interface IncomingMessage {
  messageId: string | undefined;
  routingKey: string;
  body: Buffer;
  headers: Record<string, unknown>;
  /** Deliveries so far, counting this one (quorum queues' `x-delivery-count` + 1). */
  deliveryCount: number;
}

/** Thrown by a handler for a message that can never succeed: it goes to the dead-letter queue. */
export class DeadLetterError extends Error {
  override readonly name = 'DeadLetterError';
}

export type MessageHandler = (message: IncomingMessage) => Promise<void>;

export interface EventConsumerOptions {
  names: BrokerNames;
  bindings: readonly string[];
  /** Unacknowledged messages in flight per consumer. */
  prefetch: number;
  handler: MessageHandler;
  logger: MessagingLogger;
  /** Wait before a failed message is handed back to the queue (grows with its delivery count). */
  retry?: Partial<BackoffOptions>;
}

/**
 * Each failed delivery waits before going back, holding its prefetch slot (so only `prefetch`
 * messages burn deliveries at a time). Up to 5 minutes apart, DELIVERY_LIMIT (20) deliveries span
 * roughly 30-60 minutes: a shorter database or Redis outage dead-letters nothing.
 */
const DEFAULT_RETRY: BackoffOptions = { initialMs: 1_000, maxMs: 300_000 };

/**
 * Consumes the notifier queue with manual acknowledgements (lesson 1): a message is acked only
 * after the handler has committed its effects. Topology, prefetch and the subscription are set up
 * in the channel's setup callback, so they are re-created after every reconnect (lesson 4).
 *
 * Outcomes: handler resolves -> ack; DeadLetterError -> reject without requeue (dead-letter queue,
 * reason logged); any other error -> requeued after a backoff, until the queue's delivery limit
 * dead-letters it. A malformed message therefore never crashes the consumer nor blocks the queue.
 */
export class EventConsumer {
  private wrapper: ChannelWrapper | undefined;
  private subscription: { channel: Channel; consumerTag: string } | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly retry: BackoffOptions;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: EventConsumerOptions,
  ) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Subscribes now if connected, otherwise as soon as the connection comes up. */
  start(): void {
    if (this.wrapper) return;
    const { names, logger } = this.options;
    this.wrapper = this.connection.createChannel({
      name: 'event-consumer',
      confirm: false,
      setup: (channel: Channel) => this.subscribe(channel),
    });
    this.wrapper.on('error', (error: Error) => {
      logger.error({ err: error, queue: names.notifierQueue }, 'AMQP consumer setup failed; reconnecting');
      this.connection.recover();
    });
  }

  /** True while a subscription is live on an open channel. */
  isConsuming(): boolean {
    return this.subscription !== undefined && this.connection.isConnected();
  }

  /** Stops taking messages, lets the ones in progress finish (and ack), then closes the channel. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    const subscription = this.subscription;
    this.subscription = undefined;
    if (subscription) await subscription.channel.cancel(subscription.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.wrapper?.close().catch(() => undefined);
  }

  private async subscribe(channel: Channel): Promise<void> {
    const { names, bindings, prefetch } = this.options;
    this.subscription = undefined;
    channel.on('error', (error: Error) => {
      if (this.subscription?.channel === channel) this.subscription = undefined;
      this.options.logger.warn({ err: error, queue: names.notifierQueue }, 'AMQP consumer channel closed by the broker; reconnecting');
      this.connection.recover();
    });
    await declareConsumerTopology(channel, names, { bindings, quorum: this.connection.supportsQuorumQueues() });
    await channel.prefetch(prefetch);
    const { consumerTag } = await channel.consume(
      names.notifierQueue,
      (message) => (message ? this.dispatch(channel, message) : this.onCancelledByBroker(channel)),
      { noAck: false },
    );
    this.subscription = { channel, consumerTag };
  }

  /** The broker cancelled us (queue deleted, node lost): reconnect, which re-declares and re-subscribes. */
  private onCancelledByBroker(channel: Channel): void {
    if (this.subscription?.channel === channel) this.subscription = undefined;
    if (this.stopping.signal.aborted) return;
    this.options.logger.warn({ queue: this.options.names.notifierQueue }, 'AMQP consumer cancelled by the broker; re-subscribing');
    this.connection.recover();
  }

  private dispatch(channel: Channel, message: ConsumeMessage): void {
    if (this.stopping.signal.aborted) {
      settle(() => channel.nack(message, false, true));
      return;
    }
    const work = this.process(channel, message).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  private async process(channel: Channel, raw: ConsumeMessage): Promise<void> {
    const { logger, handler } = this.options;
    const message = toIncoming(raw);
    const fields = { messageId: message.messageId, routingKey: message.routingKey, deliveryCount: message.deliveryCount };
    try {
      await runInContext(contextFromHeaders(message.headers), () => handler(message));
      settle(() => channel.ack(raw));
    } catch (error) {
      if (error instanceof DeadLetterError) {
        logger.warn({ ...fields, reason: error.message }, 'message dead-lettered');
        settle(() => channel.nack(raw, false, false));
        return;
      }
      const delayMs = backoffDelay(message.deliveryCount - 1, this.retry);
      logger.error({ ...fields, err: error, delayMs }, 'message handling failed; it will be redelivered');
      await sleep(delayMs, this.stopping.signal);
      settle(() => channel.nack(raw, false, true));
    }
  }
}

function toIncoming(raw: ConsumeMessage): IncomingMessage {
  const headers = (raw.properties.headers ?? {}) as Record<string, unknown>;
  const previous = Number(headers['x-delivery-count'] ?? (raw.fields.redelivered ? 1 : 0));
  return {
    messageId: typeof raw.properties.messageId === 'string' && raw.properties.messageId !== '' ? raw.properties.messageId : undefined,
    routingKey: raw.fields.routingKey,
    body: raw.content,
    headers,
    deliveryCount: (Number.isFinite(previous) ? previous : 0) + 1,
  };
}

/**
 * Acks and nacks go to the channel that delivered the message. If that channel is gone the
 * broker has already requeued the message, and its redelivery is a no-op thanks to the inbox.
 */
function settle(action: () => void): void {
  try {
    action();
  } catch {
    // channel closed
  }
}
