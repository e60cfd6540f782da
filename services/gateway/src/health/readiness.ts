import type { Redis } from 'ioredis';
import { answersWithin } from '@school/async';
import { SERVICE_NAMES, type ServiceName } from '@school/config';

export type DependencyStatus = 'up' | 'down';

/** The same report shape as every service's /health/ready. */
export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<'redis' | ServiceName, DependencyStatus>;
}

export const READINESS_TIMEOUT_MS = 2_000;

export interface ReadinessOptions {
  redis: Redis;
  upstreams: Record<ServiceName, string>;
  timeoutMs?: number;
  /** True from the first shutdown signal on: report unready so traffic moves away. */
  draining: () => boolean;
}

/** Redis and every service's own /health/ready, asked in parallel, each with a short time limit. */
export async function readiness(options: ReadinessOptions): Promise<ReadinessReport> {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const [redis, ...services] = await Promise.all([
    probe(() => redisPing(options.redis), timeoutMs),
    ...SERVICE_NAMES.map((name) => probe(() => serviceReady(options.upstreams[name], timeoutMs), timeoutMs)),
  ]);
  const checks = { redis, ...Object.fromEntries(SERVICE_NAMES.map((name, index) => [name, services[index]])) } as ReadinessReport['checks'];
  const healthy = !options.draining() && Object.values(checks).every((status) => status === 'up');
  return { status: healthy ? 'ok' : 'unavailable', checks };
}

async function redisPing(redis: Redis): Promise<void> {
  // While ioredis reconnects, a command would wait in its queue: "not connected" is the answer.
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  await redis.ping();
}

async function serviceReady(baseUrl: string, timeoutMs: number): Promise<void> {
  const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(timeoutMs) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`ready answered ${response.status}`);
}

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<DependencyStatus> {
  return (await answersWithin(check, timeoutMs)) ? 'up' : 'down';
}
