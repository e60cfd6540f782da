import type { Channel, ChannelWrapper } from 'amqp-connection-manager';
import type { ConsumeMessage } from 'amqplib';
import type { AmqpConnection } from '../amqp/amqp-connection.js';
import type { MessagingLogger } from '../logger.js';
import { contextFromHeaders, runInContext } from '@school/telemetry';
import type { RpcContract } from '@school/contracts';
import { describeIssues, RPC_HEADERS, type RpcFailure, type RpcReply, rpcQueueName } from './rpc-wire.js';

/** Answers one contract's requests: receives the parsed request, returns the answer. */
export type RpcRequestHandler = (request: unknown) => unknown;

export interface RpcRoute {
  contract: RpcContract;
  handler: RpcRequestHandler;
}

export interface RpcServerOptions {
  /** The broker name prefix (AMQP_NAME_PREFIX), prepended to each serving queue's name. */
  prefix: string;
  routes: readonly RpcRoute[];
  /** Requests handled at once per contract (unacknowledged deliveries per consumer). */
  prefetch: number;
  logger: MessagingLogger;
}

interface Subscription {
  channel: Channel;
  consumerTags: string[];
}

/**
 * Serves RpcContracts: one durable queue per contract, owned by the serving service and declared
 * (with the prefetch and the consumers) in the channel's setup callback, so every reconnect
 * re-creates them. Requests are not persisted and expire (their `expiration`) when nobody takes
 * them in time; nothing dead-letters.
 *
 * Per delivery: past its deadline -> dropped (logged); no `replyTo` or correlation id -> dropped
 * (logged); another contract's name, a body that is not JSON or does not match the contract's
 * request schema -> answered `invalid_request`; the handler throws or returns what does not match
 * the contract's answer schema -> answered `handler_failed` (logged with the error); otherwise the
 * answer. The delivery is acked once its answer is published; one whose channel dropped first is
 * redelivered by the broker and answered again while its deadline allows (handlers are queries).
 */
export class RpcServer {
  private wrapper: ChannelWrapper | undefined;
  private subscription: Subscription | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: RpcServerOptions,
  ) {
    const names = options.routes.map((route) => route.contract.name);
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice) throw new Error(`RPC contract ${twice} has two handlers`);
    if (!Number.isInteger(options.prefetch) || options.prefetch < 1) throw new Error('RPC server prefetch must be an integer >= 1');
  }

  /** The serving queues' names, in route order. */
  get queues(): string[] {
    return this.options.routes.map((route) => rpcQueueName(route.contract, this.options.prefix));
  }

  /** Subscribes now if connected, otherwise as soon as the connection comes up. */
  start(): void {
    if (this.wrapper || this.options.routes.length === 0) return;
    this.wrapper = this.connection.createChannel({ name: 'rpc-server', confirm: false, setup: (channel: Channel) => this.subscribe(channel) });
    this.wrapper.on('error', (error: Error) => {
      this.options.logger.error({ err: error, queues: this.queues }, 'AMQP RPC server setup failed; reconnecting');
      this.connection.recover();
    });
  }

  /** True while every serving queue is consumed on an open channel. */
  isConsuming(): boolean {
    return this.subscription !== undefined && this.connection.isConnected();
  }

  /** Stops taking requests, answers the ones in progress, then closes the channel. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const subscription = this.subscription;
    this.subscription = undefined;
    for (const tag of subscription?.consumerTags ?? []) await subscription?.channel.cancel(tag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.wrapper?.close().catch(() => undefined);
  }

  private async subscribe(channel: Channel): Promise<void> {
    const { logger, prefetch, prefix } = this.options;
    this.subscription = undefined;
    channel.on('close', () => {
      if (this.subscription?.channel === channel) this.subscription = undefined;
    });
    channel.on('error', (error: Error) => {
      logger.warn({ err: error, queues: this.queues }, 'AMQP RPC server channel closed by the broker; reconnecting');
      this.connection.recover();
    });
    // Per consumer: each contract gets `prefetch` requests at a time.
    await channel.prefetch(prefetch, false);
    const consumerTags: string[] = [];
    for (const route of this.options.routes) {
      const queue = rpcQueueName(route.contract, prefix);
      await channel.assertQueue(queue, { durable: true });
      const { consumerTag } = await channel.consume(queue, (message) => (message ? this.dispatch(channel, route, message) : this.onCancelledByBroker(channel, queue)), {
        noAck: false,
      });
      consumerTags.push(consumerTag);
    }
    this.subscription = { channel, consumerTags };
  }

  private onCancelledByBroker(channel: Channel, queue: string): void {
    if (this.subscription?.channel === channel) this.subscription = undefined;
    if (this.stopping) return;
    this.options.logger.warn({ queue }, 'AMQP RPC consumer cancelled by the broker; re-subscribing');
    this.connection.recover();
  }

  private dispatch(channel: Channel, route: RpcRoute, message: ConsumeMessage): void {
    if (this.stopping) {
      settle(() => channel.nack(message, false, true)); // another replica answers it
      return;
    }
    const work = this.answer(channel, route, message).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  private async answer(channel: Channel, { contract, handler }: RpcRoute, message: ConsumeMessage): Promise<void> {
    const { logger } = this.options;
    const { replyTo, correlationId, type } = message.properties as { replyTo?: unknown; correlationId?: unknown; type?: unknown };
    const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
    const fields = { contract: contract.name, correlationId, redelivered: message.fields.redelivered };
    if (typeof replyTo !== 'string' || replyTo === '' || typeof correlationId !== 'string' || correlationId === '') {
      logger.warn(fields, 'RPC request without replyTo or correlation id; dropped');
      settle(() => channel.ack(message));
      return;
    }
    const deadline = Number(headers[RPC_HEADERS.deadline]);
    if (Number.isFinite(deadline) && deadline <= Date.now()) {
      logger.warn({ ...fields, lateByMs: Date.now() - deadline }, 'RPC request past its deadline; dropped');
      settle(() => channel.ack(message));
      return;
    }

    const reply = await this.replyFor(contract, handler, type, message, headers, fields);
    try {
      channel.publish('', replyTo, Buffer.from(JSON.stringify(reply)), { correlationId, contentType: 'application/json', persistent: false });
      channel.ack(message);
    } catch (error) {
      // The channel is gone: the broker requeues the request, answered again if still in time.
      logger.warn({ ...fields, err: error }, 'RPC answer could not be published; the request is redelivered');
    }
  }

  private async replyFor(
    contract: RpcContract,
    handler: RpcRequestHandler,
    type: unknown,
    message: ConsumeMessage,
    headers: Record<string, unknown>,
    fields: object,
  ): Promise<RpcReply> {
    const { logger } = this.options;
    const refuse = (failure: RpcFailure, reason: string): RpcReply => ({ ok: false, failure, message: reason });
    if (typeof type === 'string' && type !== contract.name) {
      logger.warn({ ...fields, type: type.slice(0, 120) }, 'RPC request for another contract; refused');
      return refuse('invalid_request', `this queue serves ${contract.name}, not ${type.slice(0, 120)}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(message.content.toString('utf8'));
    } catch {
      logger.warn(fields, 'RPC request body is not JSON; refused');
      return refuse('invalid_request', 'the request is not JSON');
    }
    const request = contract.request.safeParse(body);
    if (!request.success) {
      const issues = describeIssues(request.error);
      logger.warn({ ...fields, issues }, 'RPC request does not match the contract; refused');
      return refuse('invalid_request', issues);
    }
    let result: unknown;
    try {
      result = await runInContext(contextFromHeaders(headers), async () => handler(request.data));
    } catch (error) {
      logger.error({ ...fields, err: error }, 'RPC handler failed; answered handler_failed');
      return refuse('handler_failed', 'the handler failed');
    }
    const answer = contract.answer.safeParse(result);
    if (!answer.success) {
      logger.error({ ...fields, issues: describeIssues(answer.error) }, 'RPC handler returned an answer that does not match the contract; answered handler_failed');
      return refuse('handler_failed', 'the handler returned an invalid answer');
    }
    return { ok: true, answer: answer.data };
  }
}

/** An ack or nack on a channel that is gone: the broker has requeued the request already. */
function settle(action: () => void): void {
  try {
    action();
  } catch {
    // channel closed
  }
}
