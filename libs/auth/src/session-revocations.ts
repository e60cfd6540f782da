import type { Redis } from 'ioredis';
import { withDeadline } from '@school/async';
import { AppError } from '@school/http';

/**
 * Revoked sessions in Redis: a sorted set of session ids scored by when their revocation may be
 * forgotten (epoch ms), and a channel of the same name announcing each new one as `<expiresAtMs> <sessionId>`.
 * Identity writes; the gateway and every service keep a copy in memory.
 */
export const REVOKED_SESSIONS_KEY = 'auth:revoked-sessions';

export interface SessionRevocationsOptions {
  /** Replaces REVOKED_SESSIONS_KEY (tests isolate themselves with a random one). */
  key?: string;
  /** A Redis answer slower than this counts as Redis being down (fail closed). */
  timeoutMs?: number;
  /** How often the subscription proves it is alive (PING); a missed answer counts as a lost connection. */
  heartbeatMs?: number;
}

/** CLIENT LIST names the subscription connections `<prefix><key>` (operators and tests find them by it). */
export const SUBSCRIBER_NAME_PREFIX = 'revocations:';
const DEFAULT_TIMEOUT_MS = 1_000;
const DEFAULT_HEARTBEAT_MS = 1_000;
/** While the set cannot be loaded after a (re)connection, it is tried again this often. */
const RELOAD_RETRY_MS = 200;

/**
 * Revoked sessions (logout, ban, password reset, soft delete, refresh-token reuse). A revocation
 * only has to outlive the access tokens of the session, so it is kept that long.
 *
 * `isRevoked` answers from memory: a set loaded from Redis and kept current by its channel. It is
 * trusted only while the subscription is up and the whole set has been reloaded since the latest
 * (re)connection (messages published while disconnected are lost to it); otherwise it answers 503
 * SERVICE_UNAVAILABLE, as does a heartbeat gone unanswered. `revoke` writes the set and publishes in
 * one transaction and returns once Redis has also sent the message to every subscribed replica:
 * it is on their sockets before the revoking request is answered, ahead of any later request. When Redis cannot answer, both
 * directions fail with 503: a token is never accepted unchecked, and a revocation never reported done when it is not.
 */
export class SessionRevocations {
  private readonly key: string;
  private readonly timeoutMs: number;
  private readonly heartbeatMs: number;
  /** Session id -> epoch ms after which its revocation no longer matters. */
  private readonly revokedUntil = new Map<string, number>();
  private readonly listeners = new Set<(sessionId: string) => void>();
  private subscriber: Redis | undefined;
  private current = false;
  private connection = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    options: SessionRevocationsOptions = {},
  ) {
    this.key = options.key ?? REVOKED_SESSIONS_KEY;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  }

  async revoke(sessionId: string, ttlSeconds: number): Promise<void> {
    const expiresAt = Date.now() + Math.max(1, Math.ceil(ttlSeconds)) * 1000;
    const results = await this.call(() =>
      this.redis.multi().zadd(this.key, 'GT', expiresAt, sessionId).zremrangebyscore(this.key, '-inf', Date.now()).publish(this.key, `${expiresAt} ${sessionId}`).exec(),
    );
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: failed?.[0] ?? new Error('transaction discarded') });
    // Redis writes to subscribers after the reply that ran PUBLISH; the answer to a later command
    // proves that write done, so the message is on every replica's socket before we return.
    await this.call(() => this.redis.ping());
    this.remember(sessionId, expiresAt);
  }

  /** 503 while the copy in memory cannot be vouched for (see the class comment); never a Redis round trip. */
  async isRevoked(sessionId: string): Promise<boolean> {
    if (!this.current) throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: new Error('session revocations are not current') });
    const expiresAt = this.revokedUntil.get(sessionId);
    if (expiresAt === undefined) return false;
    if (expiresAt > Date.now()) return true;
    this.revokedUntil.delete(sessionId);
    return false;
  }

  /**
   * Calls `listener` with each session revoked from now on, as soon as this copy learns of it (its
   * own revoke, the channel, or the reload after a reconnection). Returns the unsubscribe function.
   */
  onRevoked(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes (on a connection of its own) and loads the set; resolves once current or after `waitMs`. */
  async start(waitMs = 3_000): Promise<void> {
    if (this.subscriber) return;
    const subscriber = this.redis.duplicate({ lazyConnect: true, connectionName: `${SUBSCRIBER_NAME_PREFIX}${this.key}` });
    this.subscriber = subscriber;
    subscriber.on('error', () => {}); // surfaces as 503s; ioredis would print every reconnect failure
    subscriber.on('message', (_channel: string, message: string) => this.onMessage(message));
    subscriber.on('close', () => this.lost());
    subscriber.on('ready', () => void this.reload(++this.connection));
    this.timer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.timer.unref();
    subscriber.connect().catch(() => {}); // retried by ioredis; `current` stays false meanwhile
    const deadline = Date.now() + waitMs;
    while (!this.current && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.current = false;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    subscriber?.disconnect();
  }

  /** After each (re)connection: subscribe first, then load, so nothing falls between the two. */
  private async reload(connection: number): Promise<void> {
    const subscriber = this.subscriber;
    while (subscriber && this.subscriber === subscriber && connection === this.connection && subscriber.status === 'ready') {
      try {
        await withDeadline(() => subscriber.subscribe(this.key), this.timeoutMs, 'Redis');
        const entries = await withDeadline(() => this.redis.zrangebyscore(this.key, Date.now(), '+inf', 'WITHSCORES'), this.timeoutMs, 'Redis');
        for (let index = 0; index < entries.length; index += 2) this.remember(entries[index]!, Number(entries[index + 1]));
        if (connection === this.connection && subscriber.status === 'ready') this.current = true;
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RELOAD_RETRY_MS));
      }
    }
  }

  private async heartbeat(): Promise<void> {
    const now = Date.now();
    for (const [sessionId, expiresAt] of this.revokedUntil) if (expiresAt <= now) this.revokedUntil.delete(sessionId);
    const subscriber = this.subscriber;
    if (!subscriber || !this.current) return;
    try {
      await withDeadline(() => subscriber.ping(), this.timeoutMs, 'Redis');
    } catch {
      // A connection that stopped answering may also have stopped delivering: start over.
      if (this.subscriber === subscriber) {
        this.lost();
        subscriber.disconnect(true);
      }
    }
  }

  private lost(): void {
    this.current = false;
    this.connection += 1;
  }

  private onMessage(message: string): void {
    const space = message.indexOf(' ');
    const expiresAt = Number(message.slice(0, space));
    if (space > 0 && Number.isFinite(expiresAt)) this.remember(message.slice(space + 1), expiresAt);
  }

  private remember(sessionId: string, expiresAt: number): void {
    const known = this.revokedUntil.get(sessionId);
    if (expiresAt > (known ?? 0)) this.revokedUntil.set(sessionId, expiresAt);
    if (known === undefined && expiresAt > Date.now()) for (const listener of this.listeners) listener(sessionId);
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(command, this.timeoutMs, 'Redis');
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error });
    }
  }
}
