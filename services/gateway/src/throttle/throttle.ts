import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withDeadline } from '@school/async';
import { THROTTLE_POLICIES, THROTTLE_POLICY_NAMES, type ThrottlePolicy, type ThrottlePolicyName } from '@school/contracts';
import { Counter, type Registry } from '@school/metrics';
import type { Logger } from '@school/telemetry';
import { FullWindows } from './full-windows.js';
import { MemoryWindows } from './memory-windows.js';
import { RedisWindows } from './redis-windows.js';
import { SINGLE_HIT, type HitWeight, type WindowCount } from './window-count.js';

export const DEFAULT_THROTTLE_KEY_PREFIX = 'gateway:throttle:';

/** A Redis answer slower than this counts as Redis being down for this hit. */
const REDIS_TIMEOUT_MS = 500;

export interface ThrottleDecision {
  allowed: boolean;
  /** Seconds until the window ends (the `Retry-After` of a refusal). */
  retryAfterSeconds: number;
}

export interface ThrottleOptions {
  logger: Logger;
  keyPrefix?: string;
  /** Where refusals are counted (`gateway_throttle_rejections_total` by policy). */
  metrics?: Registry;
}

/**
 * Counts hits per policy and caller in Redis, so every gateway replica sees the same counts. While
 * Redis is unreachable it counts in this process's memory with the same limits: requests are never
 * let through unthrottled. The outage is logged once when it starts and once when it ends. A window
 * Redis has shown full refuses the rest of its hits here, without asking again (FullWindows).
 */
export class Throttle {
  private readonly redis: RedisWindows;
  private readonly memory = new MemoryWindows();
  private readonly full = new FullWindows();
  private readonly keyPrefix: string;
  private readonly logger: Logger;
  private redisHealthy = true;
  private readonly rejections: Record<ThrottlePolicyName, { inc(): void }> | undefined;

  constructor(redis: Redis, options: ThrottleOptions) {
    this.redis = new RedisWindows(redis);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_THROTTLE_KEY_PREFIX;
    this.logger = options.logger;
    this.rejections = options.metrics && rejectionCounters(options.metrics);
  }

  /**
   * `subject` identifies the caller (e.g. ip and email); it is hashed so keys hold no personal data.
   * `batch`: this many requests at once, all allowed or none counted.
   */
  async hit(policyName: ThrottlePolicyName, subject: string, batch?: number): Promise<ThrottleDecision> {
    const policy = THROTTLE_POLICIES[policyName];
    const key = `${this.keyPrefix}${policyName}:${createHash('sha256').update(subject).digest('base64url')}`;
    const weight = batch === undefined ? SINGLE_HIT : { cost: batch, wholeLimit: policy.limit };
    const { count, resetInMs } = this.full.refusal(key) ?? (await this.count(key, policy, weight));
    const allowed = count <= policy.limit;
    if (!allowed) this.rejections?.[policyName].inc();
    return { allowed, retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) };
  }

  private async count(key: string, policy: ThrottlePolicy, weight: HitWeight): Promise<WindowCount> {
    if (this.redis.available) {
      try {
        const askedAt = Date.now();
        const counted = await withDeadline(this.redis.hit(key, policy.windowMs, weight), REDIS_TIMEOUT_MS, 'Redis');
        if (!this.redisHealthy) {
          this.redisHealthy = true;
          this.logger.info('Redis is back: throttling is shared across gateway replicas again');
        }
        this.full.learn(key, policy.limit, weight, counted, askedAt);
        return counted;
      } catch (error) {
        this.fallBack(error);
      }
    } else {
      this.fallBack(new Error('Redis connection is not ready'));
    }
    return this.memory.hit(key, policy.windowMs, weight);
  }

  private fallBack(error: unknown): void {
    if (!this.redisHealthy) return;
    this.redisHealthy = false;
    this.logger.warn({ err: error }, 'Redis unreachable: throttling falls back to per-process memory windows');
  }
}

/** One series per policy, all present from the start (at 0). */
function rejectionCounters(registry: Registry): Record<ThrottlePolicyName, { inc(): void }> {
  const counter = new Counter({
    name: 'gateway_throttle_rejections_total',
    help: 'Requests the gateway refused with 429 RATE_LIMITED, by throttle policy.',
    labelNames: ['policy'],
    registers: [registry],
  });
  return Object.fromEntries(
    THROTTLE_POLICY_NAMES.map((name) => {
      const child = counter.labels(name);
      child.inc(0);
      return [name, child];
    }),
  ) as Record<ThrottlePolicyName, { inc(): void }>;
}
