import type { Redis } from 'ioredis';
import { SINGLE_HIT, type HitWeight, type WindowCount } from './window-count.js';

/**
 * One atomic round trip: count the hit (ARGV[2] requests at once) and start the window on the first
 * one. Every hit counts, refused ones included (spec §4.3 rule 5), except a weighted hit that would
 * pass the limit ARGV[3]: it is refused whole and counts nothing (contract §9, batch signed URLs).
 * The window is fixed: it ends windowMs after its first hit.
 */
const HIT_SCRIPT = `
local cost = tonumber(ARGV[2])
local wholeLimit = tonumber(ARGV[3])
if wholeLimit >= 0 then
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  if current + cost > wholeLimit then
    local left = redis.call('PTTL', KEYS[1])
    if left < 0 then left = tonumber(ARGV[1]) end
    return {current + cost, left}
  end
end
local count = redis.call('INCRBY', KEYS[1], cost)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const COMMAND = 'gatewayThrottleHit';

interface WithHitCommand {
  [COMMAND](key: string, windowMs: number, cost: number, wholeLimit: number): Promise<[number, number]>;
}

/** Fixed windows in Redis, shared by every gateway replica. */
export class RedisWindows {
  constructor(private readonly redis: Redis) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  get available(): boolean {
    return this.redis.status === 'ready';
  }

  async hit(key: string, windowMs: number, weight: HitWeight = SINGLE_HIT): Promise<WindowCount> {
    const [count, resetInMs] = await (this.redis as unknown as WithHitCommand)[COMMAND](key, windowMs, weight.cost, weight.wholeLimit ?? -1);
    return { count, resetInMs };
  }
}
