import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withDeadline } from '@school/async';
import { AppError } from '@school/http';

/**
 * One atomic round trip: forget the holders whose lease ran out, then take a slot if fewer than
 * ARGV[3] remain. A slot is a member of the user's sorted set scored by when its lease ends.
 */
const TAKE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
`;

const COMMAND = 'gatewayStreamSlotTake';

interface WithTakeCommand {
  [COMMAND](key: string, now: number, leaseEnd: number, limit: number, holder: string): Promise<number>;
}

export interface StreamSlotsOptions {
  keyPrefix: string;
  /** Open streams per user at once. */
  limit: number;
  /** How long a slot outlives the replica holding it when that replica stops renewing it. */
  leaseMs: number;
  /** A Redis answer slower than this counts as Redis being down: 503. */
  timeoutMs: number;
}

export interface StreamSlot {
  key: string;
  holder: string;
}

/**
 * Open event streams per user, counted in Redis so the limit holds across gateway replicas. Each
 * slot is a lease: its holder renews it while the stream is open and removes it when the stream
 * closes; a replica that dies stops renewing, so its slots free themselves when the lease ends.
 */
export class StreamSlots {
  constructor(
    private readonly redis: Redis,
    private readonly options: StreamSlotsOptions,
  ) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  /** A slot for `userId`, or undefined when the user already holds `limit` of them. 503 when Redis cannot answer. */
  async take(userId: string): Promise<StreamSlot | undefined> {
    const key = `${this.options.keyPrefix}streams:${createHash('sha256').update(userId).digest('base64url')}`;
    const holder = randomUUID();
    const now = Date.now();
    const taken = await this.call(() => (this.redis as unknown as WithTakeCommand)[COMMAND](key, now, now + this.options.leaseMs, this.options.limit, holder));
    return taken === 1 ? { key, holder } : undefined;
  }

  /** Extends the leases of the slots this replica holds (one round trip). */
  async renew(slots: Iterable<StreamSlot>): Promise<void> {
    const leaseEnd = Date.now() + this.options.leaseMs;
    const pipeline = this.redis.pipeline();
    for (const { key, holder } of slots) pipeline.zadd(key, 'XX', leaseEnd, holder).pexpireat(key, leaseEnd);
    if (pipeline.length > 0) await this.call(() => pipeline.exec());
  }

  async release({ key, holder }: StreamSlot): Promise<void> {
    await this.call(() => this.redis.zrem(key, holder));
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(command, this.options.timeoutMs, 'Redis');
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error });
    }
  }
}
