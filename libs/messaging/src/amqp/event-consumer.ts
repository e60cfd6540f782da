import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { MessagingLogger } from '../logger.js';
import { retryQueueFor, type ConsumerTopology } from '../topology.js';
import { contextFromHeaders, inSpan, SpanKind } from '@school/telemetry';
import type { AmqpConnection } from './amqp-connection.js';
import { copyProperties } from './message-copy.js';
import { declareConsumerTopology } from './topology-setup.js';

/** A delivery as handlers see it. */
export interface IncomingMessage {
  messageId: string | undefined;
  /** The routing key it was published with (the event type), also after passing through a retry queue. */
  routingKey: string;
  body: Buffer;
  headers: Record<string, unknown>;
  /** Handling attempts so far, counting this one: retries through the retry queues plus redeliveries. */
  deliveryCount: number;
}

/** Thrown by a handler for a message that can never succeed: it goes to the dead-letter queue. */
export class DeadLetterError extends Error {
  override readonly name = 'DeadLetterError';
}

export type MessageHandler = (message: IncomingMessage) => Promise<void>;

export interface EventConsumerOptions {
  /** The consumer's queue, bindings, retry queues and dead-letter queue (consumerTopology). */
  topology: ConsumerTopology;
  /** Unacknowledged messages in flight per consumer. */
  prefetch: number;
  handler: MessageHandler;
  logger: MessagingLogger;
}

/** Headers a retried message carries (the retry queue dead-letters it with the work queue's name as routing key). */
export const RETRY_HEADERS = {
  /** Retries so far. */
  count: 'retry-count',
  /** The routing key it was first published with. */
  routingKey: 'retry-routing-key',
  /** Why the last attempt failed (truncated), for whoever reads the dead-letter queue. */
  lastError: 'retry-last-error',
} as const;

/** Headers the broker sets on a delivery; a retry (or a replay from the dead-letter queue) is a new message and starts without them. */
export const BROKER_HEADERS = /^x-(death|first-death-|last-death-|delivery-count)/;
const LAST_ERROR_MAX_LENGTH = 500;

/**
 * Consumes one consumer's queue with manual acknowledgements (lesson 1): a message is acked only
 * after the handler has committed its effects. Topology, prefetch and the subscription are set up
 * in the channel's setup callback, so they are re-created after every reconnect (lesson 4).
 *
 * Outcomes: handler resolves -> ack; DeadLetterError -> reject without requeue (dead-letter queue,
 * reason logged); any other error -> at once a copy goes to the retry queue of its attempt (TTL,
 * then back to the work queue) and, once the broker confirmed the copy, the delivery is acked; after
 * `retry.maxRetries` retries the next failure dead-letters it. A failing message therefore never
 * holds a prefetch slot, and a malformed one never crashes the consumer nor blocks the queue.
 */
export class EventConsumer {
  private wrapper: ChannelWrapper | undefined;
  private subscription: { channel: ConfirmChannel; consumerTag: string } | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: EventConsumerOptions,
  ) {}

  /** Subscribes now if connected, otherwise as soon as the connection comes up. */
  start(): void {
    if (this.wrapper) return;
    const { topology, logger } = this.options;
    this.wrapper = this.connection.createChannel({
      name: `${topology.consumer}-event-consumer`,
      // Confirms: a retry copy must be safely in its retry queue before the delivery is acked.
      confirm: true,
      setup: (channel: ConfirmChannel) => this.subscribe(channel),
    });
    this.wrapper.on('error', (error: Error) => {
      // A setup cut short by stop() fails too: reconnecting then would only hold up the shutdown.
      if (this.stopping.signal.aborted) return;
      logger.error({ err: error, queue: topology.queue }, 'AMQP consumer setup failed; reconnecting');
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

  private async subscribe(channel: ConfirmChannel): Promise<void> {
    const { topology, prefetch } = this.options;
    this.subscription = undefined;
    channel.on('error', (error: Error) => {
      if (this.subscription?.channel === channel) this.subscription = undefined;
      if (this.stopping.signal.aborted) return;
      this.options.logger.warn({ err: error, queue: topology.queue }, 'AMQP consumer channel closed by the broker; reconnecting');
      this.connection.recover();
    });
    await declareConsumerTopology(channel, topology, {
      quorum: this.connection.supportsQuorumQueues(),
      quorumRetry: this.connection.supportsQuorumRetryQueues(),
    });
    await channel.prefetch(prefetch);
    if (this.stopping.signal.aborted) return;
    const { consumerTag } = await channel.consume(topology.queue, (message) => (message ? this.dispatch(channel, message) : this.onCancelledByBroker(channel)), { noAck: false });
    this.subscription = { channel, consumerTag };
  }

  /** The broker cancelled us (queue deleted, node lost): reconnect, which re-declares and re-subscribes. */
  private onCancelledByBroker(channel: ConfirmChannel): void {
    if (this.subscription?.channel === channel) this.subscription = undefined;
    if (this.stopping.signal.aborted) return;
    this.options.logger.warn({ queue: this.options.topology.queue }, 'AMQP consumer cancelled by the broker; re-subscribing');
    this.connection.recover();
  }

  private dispatch(channel: ConfirmChannel, message: ConsumeMessage): void {
    if (this.stopping.signal.aborted) {
      settle(() => channel.nack(message, false, true));
      return;
    }
    const work = this.process(channel, message).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  private async process(channel: ConfirmChannel, raw: ConsumeMessage): Promise<void> {
    const { logger, handler, topology } = this.options;
    const message = toIncoming(raw, topology);
    const fields = { messageId: message.messageId, routingKey: message.routingKey, deliveryCount: message.deliveryCount };
    try {
      const attributes = {
        'messaging.system': 'rabbitmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': topology.queue,
        ...(message.messageId && { 'messaging.message.id': message.messageId }),
      };
      await inSpan(`process ${message.routingKey}`, { kind: SpanKind.CONSUMER, parent: contextFromHeaders(message.headers), attributes }, () => handler(message));
      settle(() => channel.ack(raw));
    } catch (error) {
      if (error instanceof DeadLetterError) {
        logger.warn({ ...fields, reason: error.message }, 'message dead-lettered');
        settle(() => channel.nack(raw, false, false));
        return;
      }
      const retries = retryCount(message.headers);
      if (retries >= topology.retry.maxRetries) {
        logger.error({ ...fields, err: error, retries }, 'message handling failed after its last retry; dead-lettered');
        settle(() => channel.nack(raw, false, false));
        return;
      }
      const retryQueue = retryQueueFor(topology, retries);
      logger.warn({ ...fields, err: error, retries, retryQueue }, 'message handling failed; it will be retried');
      try {
        await publishConfirmed(channel, retryQueue, raw.content, retryProperties(raw, message, retries + 1, error));
        settle(() => channel.ack(raw));
      } catch (publishError) {
        // No copy is safely in the retry queue: hand the delivery back (bounded by DELIVERY_LIMIT).
        logger.error({ ...fields, err: publishError, retryQueue }, 'message could not be moved to its retry queue; requeued');
        settle(() => channel.nack(raw, false, true));
      }
    }
  }
}

function retryCount(headers: Record<string, unknown>): number {
  const value = Number(headers[RETRY_HEADERS.count] ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** The retry copy: same body and properties, the broker's headers dropped, the retry headers set. */
function retryProperties(raw: ConsumeMessage, message: IncomingMessage, retries: number, error: unknown): Options.Publish {
  const headers = Object.fromEntries(Object.entries(message.headers).filter(([name]) => !BROKER_HEADERS.test(name)));
  return copyProperties(raw.properties, {
    ...headers,
    [RETRY_HEADERS.count]: retries,
    [RETRY_HEADERS.routingKey]: message.routingKey,
    [RETRY_HEADERS.lastError]: (error instanceof Error ? error.message : String(error)).slice(0, LAST_ERROR_MAX_LENGTH),
  });
}

/** Publishes through the default exchange straight into `queue` and waits for the broker's confirm. */
function publishConfirmed(channel: ConfirmChannel, queue: string, content: Buffer, options: Options.Publish): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.sendToQueue(queue, content, options, (error) => (error ? reject(error instanceof Error ? error : new Error('retry copy nacked by the broker')) : resolve()));
    } catch (error) {
      reject(error);
    }
  });
}

function toIncoming(raw: ConsumeMessage, topology: ConsumerTopology): IncomingMessage {
  const headers = (raw.properties.headers ?? {}) as Record<string, unknown>;
  const redeliveries = Number(headers['x-delivery-count'] ?? (raw.fields.redelivered ? 1 : 0));
  // Back from a retry queue, the routing key is the work queue's name; the first one travels in a header.
  const original = headers[RETRY_HEADERS.routingKey];
  const routingKey = raw.fields.routingKey === topology.queue && typeof original === 'string' ? original : raw.fields.routingKey;
  return {
    messageId: typeof raw.properties.messageId === 'string' && raw.properties.messageId !== '' ? raw.properties.messageId : undefined,
    routingKey,
    body: raw.content,
    headers,
    deliveryCount: retryCount(headers) + (Number.isFinite(redeliveries) ? redeliveries : 0) + 1,
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
