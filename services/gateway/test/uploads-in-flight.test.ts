import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { UploadsInFlight } from '../src/throttle/uploads-in-flight.js';
import { REDIS_URL } from './support/gateway.js';

/** Two gateway replicas sharing Redis: slots count across them, and a dead replica's slots end with their lease. */
describe('uploads in flight across replicas', () => {
  const keyPrefix = `test:inflight:${randomBytes(6).toString('hex')}:`;
  const logger = pino({ level: 'silent' });
  const clients: Redis[] = [];
  const replica = (leaseMs: number) => {
    const redis = new Redis(REDIS_URL);
    redis.on('error', () => {});
    clients.push(redis);
    return { redis, inFlight: new UploadsInFlight(redis, { keyPrefix, logger, leaseMs }) };
  };
  const ready = (redis: Redis) => new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));

  afterAll(async () => {
    const [first] = clients;
    if (first && first.status === 'ready') {
      const keys = await first.keys(`${keyPrefix}*`);
      if (keys.length > 0) await first.del(...keys);
    }
    for (const client of clients) client.disconnect();
  });

  it("refuses a user's 4th slot on another replica while the first keeps its leases renewed, and frees them once it is gone", async () => {
    const leaseMs = 1_500;
    const first = replica(leaseMs);
    const second = replica(leaseMs);
    await Promise.all([ready(first.redis), ready(second.redis)]);
    const slots = await Promise.all([1, 2, 3].map((index) => first.inFlight.acquire('user-a', `10.0.0.${index}`)));
    expect(slots.every(Boolean)).toBe(true);

    // Several leases long: the first replica renews them.
    await sleep(leaseMs * 3);
    expect(await second.inFlight.acquire('user-a', '10.0.1.1')).toBeUndefined();

    // The first replica dies without releasing anything: its renewals stop, its leases run out.
    first.redis.disconnect();
    let slot;
    for (let attempt = 0; attempt < 50 && !slot; attempt += 1) {
      await sleep(leaseMs / 2);
      slot = await second.inFlight.acquire('user-a', '10.0.1.1');
    }
    expect(slot).toBeDefined();
    slot?.release();
  });

  it('gives a slot back on release at once', async () => {
    const { redis, inFlight } = replica(30_000);
    await ready(redis);
    const slots = await Promise.all(Array.from({ length: 10 }, (_, index) => inFlight.acquire(`user-${index}`, '10.0.2.1')));
    expect(slots.every(Boolean)).toBe(true);
    expect(await inFlight.acquire('user-x', '10.0.2.1')).toBeUndefined();
    slots[0]?.release();
    let slot;
    for (let attempt = 0; attempt < 50 && !slot; attempt += 1) {
      if (attempt > 0) await sleep(20);
      slot = await inFlight.acquire('user-x', '10.0.2.1');
    }
    expect(slot).toBeDefined();
  });
});
