import { BaseRpcContext, type CustomTransportStrategy, type MessageHandler as NestMessageHandler, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { AmqpConnection } from '../amqp/amqp-connection.js';
import { DeadLetterError, EventConsumer, type EventConsumerOptions, type IncomingMessage } from '../amqp/event-consumer.js';

/** Transport id of the AMQP event transport (`@EventPattern(type, AMQP_EVENT_TRANSPORT)` pins a handler to it). */
export const AMQP_EVENT_TRANSPORT = Symbol('AMQP_EVENT_TRANSPORT');

/** What `@Ctx()` gives an `@EventPattern` handler: the delivery (message id, routing key, headers, delivery count). */
export class AmqpEventContext extends BaseRpcContext<[IncomingMessage]> {
  getMessage(): IncomingMessage {
    return this.args[0];
  }
}

export type AmqpEventTransportOptions = Omit<EventConsumerOptions, 'handler'>;

/**
 * A `@nestjs/microservices` transport for one consumer's queue, in place of `Transport.RMQ`
 * (whose defaults are unsafe, lesson 1). The consuming is EventConsumer's: topology, prefetch and
 * the subscription in the channel's setup callback (re-created on every reconnect), manual acks.
 *
 * Each delivery goes to the `@EventPattern` handler of its routing key, with the JSON body as
 * `@Payload()` and an AmqpEventContext as `@Ctx()`. Outcomes: the handler resolves -> ack; no
 * handler for the key, a body that is not JSON, or a DeadLetterError -> dead-letter queue, reason
 * logged; any other error -> retried through the retry queues, then dead-lettered. Handlers' errors reach the transport only
 * through EventErrorFilter (Nest's default filter replaces them with a generic error, which is
 * then treated as transient).
 */
export class AmqpEventTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = AMQP_EVENT_TRANSPORT;
  /** Handler failures decide ack or dead-letter here, so Nest need not log them as unobserved. */
  override readonly propagatesEventHandlerErrors = true;
  private readonly consumer: EventConsumer;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: AmqpEventTransportOptions,
  ) {
    super();
    this.consumer = new EventConsumer(connection, { ...options, handler: (message) => this.dispatch(message) });
  }

  /**
   * Starts consuming (now, or once the broker is reachable: start-up does not wait for it). Fails
   * when a routing key bound to the queue has no handler: its messages would all be dead-lettered.
   */
  listen(callback: (error?: Error) => void): void {
    const { topology } = this.options;
    const unhandled = topology.bindings.filter((key) => !this.handlerFor(key));
    if (unhandled.length > 0) {
      callback(new Error(`no @EventPattern handler for routing key(s) bound to ${topology.queue}: ${unhandled.join(', ')}`));
      return;
    }
    this.consumer.start();
    callback();
  }

  /** Stops taking messages and waits for the handlers in progress to finish (and be acked). Idempotent. */
  async close(): Promise<void> {
    await this.consumer.stop();
  }

  /** True while subscribed on an open channel (the `event-consumer` readiness check). */
  isConsuming(): boolean {
    return this.consumer.isConsuming();
  }

  on(): never {
    throw new Error('AmqpEventTransport emits no events; its state is in isConsuming()');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  private async dispatch(message: IncomingMessage): Promise<void> {
    const handler = this.handlerFor(message.routingKey);
    if (!handler) throw new DeadLetterError(`no handler for routing key "${message.routingKey.slice(0, 100)}"`);
    let data: unknown;
    try {
      data = JSON.parse(message.body.toString('utf8'));
    } catch {
      throw new DeadLetterError('body is not JSON');
    }
    try {
      const result: unknown = await handler(data, new AmqpEventContext([message]));
      // A failed handler comes back as an erroring stream (the exception filter's result).
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    } catch (error) {
      throw error instanceof Error ? error : new Error(`event handler failed; Nest masked the error (${summarise(error)}): apply EventErrorFilter to the controller`);
    }
  }

  private handlerFor(routingKey: string): NestMessageHandler | null {
    try {
      return this.getHandlerByPattern(routingKey);
    } catch {
      return null; // a routing key that is no valid pattern has no handler
    }
  }
}

function summarise(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}
