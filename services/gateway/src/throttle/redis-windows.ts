import type { Redis } from 'ioredis';
import type { WindowCount } from './window-count.js';

/**
 * One atomic round trip: count the hit and start the window on the first one. Every hit counts,
 * refused ones included (spec §4.3 rule 5). The window is fixed: it ends windowMs after its first hit.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const COMMAND = 'gatewayThrottleHit';

interface WithHitCommand {
  [COMMAND](key: string, windowMs: number): Promise<[number, number]>;
}

/** Fixed windows in Redis, shared by every gateway replica. */
export class RedisWindows {
  constructor(private readonly redis: Redis) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  get available(): boolean {
    return this.redis.status === 'ready';
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, resetInMs] = await (this.redis as unknown as WithHitCommand)[COMMAND](key, windowMs);
    return { count, resetInMs };
  }
}
