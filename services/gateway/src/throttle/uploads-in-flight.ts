import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withDeadline } from '@school/async';
import type { Logger } from '@school/telemetry';

/** Contract §9: uploads in flight at once. */
export const UPLOADS_IN_FLIGHT_LIMITS = { perUser: 3, perIp: 10 } as const;

/** A slot is leased this long and renewed while its upload lasts, so a dead replica's slots free themselves. */
const LEASE_MS = 30_000;
const REDIS_TIMEOUT_MS = 500;

/**
 * One sorted set per user and per ip: member = slot, score = end of its lease. Expired leases are
 * dropped first; the slot is taken in both sets or in neither.
 */
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then return 0 end
end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return 1
`;
const RENEW_SCRIPT = `
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], 'XX', ARGV[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return 1
`;

interface WithSlotCommands {
  gatewayUploadSlotAcquire(userKey: string, ipKey: string, now: number, slot: string, leaseMs: number, perUser: number, perIp: number): Promise<number>;
  gatewayUploadSlotRenew(userKey: string, ipKey: string, leaseEnd: number, slot: string, leaseMs: number): Promise<number>;
}

export interface UploadSlot {
  release(): void;
}

/**
 * Counts uploads in flight per user and per ip in Redis, shared by every gateway replica. While Redis
 * is unreachable each replica counts its own, with the same limits.
 */
export class UploadsInFlight {
  private readonly redis: Redis & WithSlotCommands;
  private readonly local = new Map<string, number>();
  private redisFailing = false;

  private readonly leaseMs: number;

  constructor(
    redis: Redis,
    private readonly options: { keyPrefix: string; logger: Logger; leaseMs?: number },
  ) {
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    redis.defineCommand('gatewayUploadSlotAcquire', { numberOfKeys: 2, lua: ACQUIRE_SCRIPT });
    redis.defineCommand('gatewayUploadSlotRenew', { numberOfKeys: 2, lua: RENEW_SCRIPT });
    this.redis = redis as Redis & WithSlotCommands;
  }

  /** A slot for the caller, or undefined when the user or the ip has as many in flight as allowed. */
  async acquire(userId: string, ip: string): Promise<UploadSlot | undefined> {
    const keys = [this.key('user', userId), this.key('ip', ip)] as const;
    if (this.redis.status === 'ready') {
      try {
        const slot = await this.acquireShared(keys);
        this.redisFailing = false;
        return slot;
      } catch (error) {
        if (!this.redisFailing) this.options.logger.warn({ err: error }, 'Redis unreachable: uploads in flight are counted per gateway replica');
        this.redisFailing = true;
      }
    }
    return this.acquireLocal(keys);
  }

  private async acquireShared([userKey, ipKey]: readonly [string, string]): Promise<UploadSlot | undefined> {
    const slot = randomUUID();
    const { perUser, perIp } = UPLOADS_IN_FLIGHT_LIMITS;
    const taken = await withDeadline(this.redis.gatewayUploadSlotAcquire(userKey, ipKey, Date.now(), slot, this.leaseMs, perUser, perIp), REDIS_TIMEOUT_MS, 'Redis');
    if (taken !== 1) return undefined;
    const renewal = setInterval(() => {
      this.redis.gatewayUploadSlotRenew(userKey, ipKey, Date.now() + this.leaseMs, slot, this.leaseMs).catch(() => {});
    }, this.leaseMs / 3).unref();
    return {
      release: () => {
        clearInterval(renewal);
        // A release Redis misses ends with the lease.
        this.redis
          .pipeline()
          .zrem(userKey, slot)
          .zrem(ipKey, slot)
          .exec()
          .catch(() => {});
      },
    };
  }

  private acquireLocal(keys: readonly [string, string]): UploadSlot | undefined {
    const [userCount, ipCount] = keys.map((key) => this.local.get(key) ?? 0) as [number, number];
    if (userCount >= UPLOADS_IN_FLIGHT_LIMITS.perUser || ipCount >= UPLOADS_IN_FLIGHT_LIMITS.perIp) return undefined;
    for (const key of keys) this.local.set(key, (this.local.get(key) ?? 0) + 1);
    return {
      release: () => {
        for (const key of keys) {
          const left = (this.local.get(key) ?? 1) - 1;
          if (left > 0) this.local.set(key, left);
          else this.local.delete(key);
        }
      },
    };
  }

  private key(kind: 'user' | 'ip', subject: string): string {
    return `${this.options.keyPrefix}uploads-in-flight:${kind}:${createHash('sha256').update(subject).digest('base64url')}`;
  }
}
