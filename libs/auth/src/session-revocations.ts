import type { Redis } from 'ioredis';
import { withDeadline } from '@school/async';
import { AppError } from '@school/http';

/** Where revoked sessions live in Redis: `<prefix><sessionId>`. Identity writes, every verifier reads. */
export const REVOKED_SESSION_KEY_PREFIX = 'auth:revoked-session:';

export interface SessionRevocationsOptions {
  /** Replaces REVOKED_SESSION_KEY_PREFIX (tests isolate themselves with a random one). */
  keyPrefix?: string;
  /** A Redis answer slower than this counts as Redis being down (fail closed). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 1_000;

/**
 * Revoked sessions (logout, ban, password reset, soft delete, refresh-token reuse). A revocation
 * only has to outlive the access tokens of the session, so it is written with that TTL.
 * When Redis cannot answer, both directions fail with 503 SERVICE_UNAVAILABLE: a token is never
 * accepted without the revocation check, and a revocation is never reported done when it is not.
 */
export class SessionRevocations {
  private readonly keyPrefix: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly redis: Redis,
    options: SessionRevocationsOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? REVOKED_SESSION_KEY_PREFIX;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async revoke(sessionId: string, ttlSeconds: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    await this.call(() => this.redis.set(this.key(sessionId), '1', 'EX', ttl));
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return (await this.call(() => this.redis.exists(this.key(sessionId)))) > 0;
  }

  private key(sessionId: string): string {
    return `${this.keyPrefix}${sessionId}`;
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(command, this.timeoutMs, 'Redis');
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error });
    }
  }
}
