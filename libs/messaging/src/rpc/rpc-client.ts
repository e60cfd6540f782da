import { randomUUID } from 'node:crypto';
import type { Channel, ChannelWrapper } from 'amqp-connection-manager';
import type { ConsumeMessage, Message } from 'amqplib';
import type { AmqpConnection } from '../amqp/amqp-connection.js';
import type { MessagingLogger } from '../logger.js';
import { currentTraceparent } from '@school/telemetry';
import type { RpcAnswer, RpcContract, RpcRequest } from '@school/contracts';
import { RpcContractError, RpcUnavailableError, type RpcError } from './rpc-errors.js';
import { describeIssues, DIRECT_REPLY_TO, RPC_HEADERS, rpcReplySchema, rpcQueueName } from './rpc-wire.js';

/** A caller waits this long for an answer unless the call says otherwise. */
export const DEFAULT_RPC_TIMEOUT_MS = 3_000;
/** Longest deadline a call may ask for: a request waiting longer holds an HTTP request open. */
export const MAX_RPC_TIMEOUT_MS = 60_000;

export interface RpcClientOptions {
  /** The broker name prefix (AMQP_NAME_PREFIX), prepended to the serving queue's name. */
  prefix: string;
  defaultTimeoutMs?: number;
  logger: MessagingLogger;
}

export interface RpcCallOptions {
  /** Deadline of this call, in milliseconds; also the request's AMQP `expiration`. */
  timeoutMs?: number;
}

interface PendingCall {
  contract: RpcContract;
  channel: Channel;
  timer: NodeJS.Timeout;
  resolve: (answer: unknown) => void;
  reject: (error: RpcError) => void;
}

/**
 * Asks other services questions declared as RpcContracts (lesson 14). One channel per process
 * consumes RabbitMQ's direct reply-to pseudo-queue in no-ack mode; the consumer is set up in the
 * channel's setup callback, before any request is published on that same channel, and again after
 * every reconnect.
 *
 * Each call carries a fresh correlation id, a deadline (also the request's `expiration`, so the
 * broker drops a request nobody took in time, and a server drops one that is past it) and is
 * published `mandatory` to the serving queue. It resolves with the answer, validated by the
 * contract; otherwise it rejects with RpcUnavailableError (no answer: deadline, broker not
 * connected, channel lost while waiting, no queue, server failure) or RpcContractError (request or
 * answer not matching the contract). A late or duplicate answer finds no pending call and is ignored.
 */
export class RpcClient {
  private readonly wrapper: ChannelWrapper;
  /** The open channel whose reply consumer is live; undefined while (re)connecting. */
  private channel: Channel | undefined;
  private readonly pending = new Map<string, PendingCall>();
  private readonly defaultTimeoutMs: number;
  private closed = false;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: RpcClientOptions,
  ) {
    this.defaultTimeoutMs = checkTimeout(options.defaultTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS);
    this.wrapper = connection.createChannel({ name: 'rpc-client', confirm: false, setup: (channel: Channel) => this.setup(channel) });
    this.wrapper.on('error', (error: Error) => {
      options.logger.error({ err: error }, 'AMQP RPC client setup failed; reconnecting');
      connection.recover();
    });
  }

  /** True while the reply consumer is live on an open channel: calls can be made. */
  isReady(): boolean {
    return this.channel !== undefined && this.connection.isConnected();
  }

  /** Number of calls waiting for their answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  async call<Contract extends RpcContract>(contract: Contract, request: RpcRequest<Contract>, options: RpcCallOptions = {}): Promise<RpcAnswer<Contract>> {
    const timeoutMs = options.timeoutMs === undefined ? this.defaultTimeoutMs : checkTimeout(options.timeoutMs);
    const parsed = contract.request.safeParse(request);
    if (!parsed.success) throw new RpcContractError(contract.name, 'request', describeIssues(parsed.error));
    const channel = this.channel;
    if (this.closed || !channel) throw new RpcUnavailableError(contract.name, 'not_connected', 'not connected to the broker');

    const correlationId = randomUUID();
    const traceparent = currentTraceparent();
    return new Promise<RpcAnswer<Contract>>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(correlationId, new RpcUnavailableError(contract.name, 'deadline', `no answer within ${timeoutMs} ms`)), timeoutMs);
      this.pending.set(correlationId, { contract, channel, timer, resolve: resolve as (answer: unknown) => void, reject });
      try {
        channel.publish('', rpcQueueName(contract, this.options.prefix), Buffer.from(JSON.stringify(parsed.data)), {
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          expiration: String(timeoutMs),
          mandatory: true,
          persistent: false,
          contentType: 'application/json',
          type: contract.name,
          timestamp: Math.floor(Date.now() / 1000),
          headers: { [RPC_HEADERS.deadline]: Date.now() + timeoutMs, ...(traceparent && { traceparent }) },
        });
      } catch (error) {
        this.fail(correlationId, new RpcUnavailableError(contract.name, 'connection_lost', 'the request could not be published', { cause: error }));
      }
    });
  }

  /** Fails the calls still waiting and closes the channel. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failAll(undefined, 'not_connected', 'the RPC client was closed');
    this.channel = undefined;
    await this.wrapper.close().catch(() => undefined);
  }

  private async setup(channel: Channel): Promise<void> {
    this.channel = undefined;
    channel.on('close', () => this.onChannelClosed(channel));
    channel.on('error', (error: Error) => this.options.logger.warn({ err: error }, 'AMQP RPC client channel closed by the broker'));
    channel.on('return', (message: Message) => this.onReturned(message));
    // Direct reply-to: consumed in no-ack mode, on the channel that publishes, before it publishes.
    await channel.consume(DIRECT_REPLY_TO, (message) => message && this.onReply(message), { noAck: true });
    this.channel = channel;
  }

  private onChannelClosed(channel: Channel): void {
    if (this.channel === channel) this.channel = undefined;
    this.failAll(channel, 'connection_lost', 'the broker connection was lost before the answer came');
  }

  private failAll(channel: Channel | undefined, reason: 'connection_lost' | 'not_connected', detail: string): void {
    for (const [correlationId, call] of this.pending) {
      if (channel === undefined || call.channel === channel) this.fail(correlationId, new RpcUnavailableError(call.contract.name, reason, detail));
    }
  }

  /** Published `mandatory` and routed nowhere: the serving queue does not exist. */
  private onReturned(message: Message): void {
    const correlationId = message.properties.correlationId as unknown;
    const call = typeof correlationId === 'string' ? this.pending.get(correlationId) : undefined;
    if (!call || typeof correlationId !== 'string') return;
    this.fail(correlationId, new RpcUnavailableError(call.contract.name, 'no_server', 'no queue serves this contract (its server has never run)'));
  }

  private onReply(message: ConsumeMessage): void {
    const correlationId = message.properties.correlationId as unknown;
    const call = typeof correlationId === 'string' ? this.pending.get(correlationId) : undefined;
    if (!call || typeof correlationId !== 'string') {
      this.options.logger.debug({ correlationId }, 'RPC answer for no waiting call (late or duplicate); ignored');
      return;
    }
    const name = call.contract.name;
    let body: unknown;
    try {
      body = JSON.parse(message.content.toString('utf8'));
    } catch {
      this.fail(correlationId, new RpcContractError(name, 'answer', 'the answer is not JSON'));
      return;
    }
    const reply = rpcReplySchema.safeParse(body);
    if (!reply.success) {
      this.fail(correlationId, new RpcContractError(name, 'answer', describeIssues(reply.error)));
      return;
    }
    if (!reply.data.ok) {
      const error =
        reply.data.failure === 'invalid_request'
          ? new RpcContractError(name, 'request', reply.data.message)
          : new RpcUnavailableError(name, 'server_failed', `the server could not answer: ${reply.data.message}`);
      this.fail(correlationId, error);
      return;
    }
    const answer = call.contract.answer.safeParse(reply.data.answer);
    if (!answer.success) {
      this.fail(correlationId, new RpcContractError(name, 'answer', describeIssues(answer.error)));
      return;
    }
    this.pending.delete(correlationId);
    clearTimeout(call.timer);
    call.resolve(answer.data);
  }

  private fail(correlationId: string, error: RpcError): void {
    const call = this.pending.get(correlationId);
    if (!call) return;
    this.pending.delete(correlationId);
    clearTimeout(call.timer);
    call.reject(error);
  }
}

function checkTimeout(ms: number): number {
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_RPC_TIMEOUT_MS) throw new Error(`an RPC deadline must be an integer from 1 to ${MAX_RPC_TIMEOUT_MS} ms (got ${ms})`);
  return ms;
}
