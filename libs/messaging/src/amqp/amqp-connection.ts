import amqp, { type AmqpConnectionManager, type ChannelWrapper, type CreateChannelOpts } from 'amqp-connection-manager';
import { backoffDelay, sleep, type BackoffOptions } from '../backoff.js';
import type { MessagingLogger } from '../logger.js';

export interface AmqpConnectionOptions {
  url: string;
  /** Shown as the connection name in the RabbitMQ management UI, e.g. `feedback-relay`. */
  name: string;
  logger: MessagingLogger;
  heartbeatSeconds?: number;
  /** Reconnect delays: about `initialMs` after a drop, doubling per failed attempt up to `maxMs`. */
  reconnect?: Partial<BackoffOptions>;
}

/**
 * A broker that comes back is found within about 2 s: each attempt after a refused connect costs
 * the broker little, and the jitter spreads the replicas out.
 */
export const DEFAULT_RECONNECT: BackoffOptions = { initialMs: 500, maxMs: 2_000 };
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * One AMQP connection (amqp-connection-manager) that reconnects for ever with exponential
 * backoff capped at a few seconds (DEFAULT_RECONNECT). Channels created from it re-run their setup callbacks (topology, consumers) on every
 * reconnect. Log lines name the broker host, never the credentials of the URL.
 */
export class AmqpConnection {
  private readonly manager: AmqpConnectionManager;
  private readonly reconnect: BackoffOptions;
  private readonly closing = new AbortController();
  private failures = 0;
  private recoveries = 0;
  private lastRecoveryAt = 0;
  private recoveryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: AmqpConnectionOptions) {
    this.reconnect = { ...DEFAULT_RECONNECT, ...options.reconnect };
    const { logger } = options;
    const broker = describeBroker(options.url);
    this.manager = amqp.connect(null, {
      heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 5,
      // The manager's own fixed delay is the first step of the backoff; nextServer() adds the rest.
      reconnectTimeInSeconds: this.reconnect.initialMs / 1000,
      findServers: () => this.nextServer(),
      connectionOptions: { clientProperties: { connection_name: options.name } },
    });
    this.manager.on('connect', () => {
      this.failures = 0;
      logger.info({ broker, connection: options.name }, 'AMQP connected');
    });
    this.manager.on('disconnect', ({ err }: { err?: Error }) => {
      if (!this.closing.signal.aborted) logger.warn({ broker, connection: options.name, err: err?.message }, 'AMQP connection lost; reconnecting');
    });
    this.manager.on('connectFailed', ({ err }: { err?: Error }) => {
      this.failures += 1;
      if (this.closing.signal.aborted) return;
      const level = this.failures === 1 || this.failures % 10 === 0 ? 'warn' : 'debug';
      logger[level]({ broker, connection: options.name, attempt: this.failures, err: err?.message }, 'AMQP connect failed; retrying with backoff');
    });
    this.manager.on('blocked', ({ reason }: { reason: string }) => logger.warn({ broker, reason }, 'AMQP connection blocked by the broker'));
    this.manager.on('unblocked', () => logger.info({ broker }, 'AMQP connection unblocked'));
  }

  isConnected(): boolean {
    return this.manager.isConnected();
  }

  /** Resolves once connected; rejects after `timeoutMs` (connecting goes on in the background). */
  async waitForConnect(timeoutMs = 10_000): Promise<void> {
    if (this.isConnected()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.manager.removeListener('connect', onConnect);
        reject(new Error(`AMQP not connected within ${timeoutMs} ms`));
      }, timeoutMs);
      const onConnect = () => {
        clearTimeout(timer);
        resolve();
      };
      this.manager.once('connect', onConnect);
    });
  }

  /** Calls `listener` after every (re)connect; returns the unsubscribe function. */
  onConnect(listener: () => void): () => void {
    this.manager.on('connect', listener);
    return () => this.manager.removeListener('connect', listener);
  }

  createChannel(options: CreateChannelOpts): ChannelWrapper {
    return this.manager.createChannel(options);
  }

  /**
   * Drops and re-opens the connection so every channel runs its setup again (after a setup failure
   * or a consumer cancelled by the broker). Repeated requests are spaced out by the backoff.
   */
  recover(): void {
    if (this.closing.signal.aborted || this.recoveryTimer) return;
    const now = Date.now();
    if (now - this.lastRecoveryAt > this.reconnect.maxMs * 2) this.recoveries = 0;
    const delay = this.recoveries === 0 ? 0 : Math.max(0, this.lastRecoveryAt + backoffDelay(this.recoveries, this.reconnect) - now);
    this.recoveryTimer = setTimeout(() => {
      this.recoveryTimer = undefined;
      if (this.closing.signal.aborted || !this.manager.isConnected()) return;
      this.recoveries += 1;
      this.lastRecoveryAt = Date.now();
      this.options.logger.warn({ connection: this.options.name }, 'AMQP reconnecting to re-run channel setup');
      this.manager.reconnect();
    }, delay);
  }

  /** Quorum queues exist from RabbitMQ 3.8 on; older brokers get classic durable queues. */
  supportsQuorumQueues(): boolean {
    return this.brokerAtLeast(3, 8);
  }

  /** Quorum queues with message TTL and at-least-once dead-lettering exist from RabbitMQ 3.10 on. */
  supportsQuorumRetryQueues(): boolean {
    return this.brokerAtLeast(3, 10);
  }

  /** The connected broker's version is at least `major.minor` (assumed when unknown). */
  private brokerAtLeast(major: number, minor: number): boolean {
    const version = this.manager.connection?.connection.serverProperties?.['version'];
    return typeof version !== 'string' || versionAtLeast(version, major, minor);
  }

  /** Closes channels and the connection; bounded, because a close during a reconnect wait can stall. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    clearTimeout(this.recoveryTimer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.manager.close().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Called by the manager before every connect attempt: waits the backoff beyond the first step. */
  private async nextServer(): Promise<string[]> {
    if (this.failures > 0) {
      const delay = backoffDelay(this.failures, this.reconnect) - this.reconnect.initialMs;
      await sleep(delay, this.closing.signal);
    }
    // An empty list makes the pending attempt fail at once, so close() is not held up.
    return this.closing.signal.aborted ? [] : [this.options.url];
  }
}

export function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [actualMajor = 0, actualMinor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return actualMajor > major || (actualMajor === major && actualMinor >= minor);
}

function describeBroker(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(invalid AMQP URL)';
  }
}
