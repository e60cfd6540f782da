import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TcpProxy } from '@school/messaging/testing';
import { Redis } from 'ioredis';
import { namesIn, referenceDataSuite, type ReferenceDataInstance, type ReferenceDataSuite } from './support/reference-data-app.js';
import { scaled, waitFor } from '@school/testing';

const PATH = '/api/academic-sessions';
const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Spec §4.6 rule 1: reads from a cache (1 hour) keyed on the whole query; every write clears it for every replica. */
describe('academic sessions list cache (Redis, shared by replicas)', () => {
  let suite: ReferenceDataSuite;
  let one: ReferenceDataInstance;
  let two: ReferenceDataInstance;
  let redis: Redis;
  let admin: string;

  /** A row written behind the service's back: a cached list does not show it. */
  const insertDirectly = (name: string, year: number) =>
    suite.prisma.academicSession.create({
      data: { publicId: crypto.randomUUID(), name, startDate: new Date(`${year}-01-01`), endDate: new Date(`${year}-12-31`) },
    });

  /** Whether a list entry for a query naming `search` is in Redis under its cache's current version (`<cache>:list:v<version>:<query>`). */
  const cachedUnderCurrentVersion = async (search: string) => {
    for (const key of await redis.keys(`${suite.cachePrefix}*:list:v*${search}*`)) {
      const [, cache, version] = /^(.*):list:v(\d+):/.exec(key) ?? [];
      if (cache !== undefined && ((await redis.get(`${cache}:list:version`)) ?? '0') === version) return true;
    }
    return false;
  };

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_sessions_cache');
    one = await suite.start();
    two = await suite.start();
    admin = await suite.token('admin');
    redis = new Redis(TEST_REDIS_URL);
  });

  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${suite.cachePrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    await suite?.close();
  });

  it('serves reads from Redis for one hour, keyed on the whole normalised query', async () => {
    expect((await one.request('POST', PATH, { name: 'Cached', startDate: '2025-01-01', endDate: '2025-12-31' }, admin)).status).toBe(201);
    expect(namesIn(await one.request('GET', `${PATH}?size=10`, undefined, admin))).toEqual(['Cached']);
    await insertDirectly('Behind the back', 2026);
    // Same query, on either replica: the cached answer.
    expect(namesIn(await one.request('GET', `${PATH}?size=10`, undefined, admin))).toEqual(['Cached']);
    expect(namesIn(await two.request('GET', `${PATH}?size=10`, undefined, admin))).toEqual(['Cached']);
    // The same query spelled with its defaults is the same entry.
    expect(namesIn(await two.request('GET', `${PATH}?size=10&page=1&order=desc&sort=startDate&pagination=true`, undefined, admin))).toEqual(['Cached']);
    // Another query is another entry.
    expect(namesIn(await two.request('GET', `${PATH}?size=11`, undefined, admin))).toEqual(['Behind the back', 'Cached']);

    const keys = (await redis.keys(`${suite.cachePrefix}*`)).filter((key) => !key.endsWith(':version'));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(3590);
      expect(ttl).toBeLessThanOrEqual(3600);
    }
  });

  it('a write on one replica is visible in the very next list on the other', async () => {
    await two.request('GET', `${PATH}?size=20`, undefined, admin);
    await one.request('GET', `${PATH}?size=20`, undefined, admin);
    const created = await one.request('POST', PATH, { name: 'Written on one', startDate: '2030-01-01', endDate: '2030-12-31' }, admin);
    expect(namesIn(await two.request('GET', `${PATH}?size=20`, undefined, admin))).toContain('Written on one');
    const { publicId } = created.body.data as { publicId: string };

    await two.request('GET', `${PATH}?search=written`, undefined, admin);
    expect((await two.request('PATCH', `${PATH}/${publicId}`, { name: 'Renamed on two' }, admin)).status).toBe(200);
    expect(namesIn(await one.request('GET', `${PATH}?search=written`, undefined, admin))).toEqual([]);
    expect(namesIn(await one.request('GET', `${PATH}?search=renamed`, undefined, admin))).toEqual(['Renamed on two']);

    expect((await one.request('DELETE', `${PATH}/${publicId}`, undefined, admin)).status).toBe(200);
    expect(namesIn(await two.request('GET', `${PATH}?search=renamed`, undefined, admin))).toEqual([]);
  });

  it('a refused write leaves the cache as it was', async () => {
    const before = namesIn(await one.request('GET', `${PATH}?pagination=false`, undefined, admin));
    await insertDirectly('Hidden until a write', 2040);
    expect((await one.request('POST', PATH, { name: 'CACHED', startDate: '2041-01-01', endDate: '2041-12-31' }, admin)).body.errorCode).toBe('ACADEMIC_SESSION_NAME_TAKEN');
    expect(namesIn(await two.request('GET', `${PATH}?pagination=false`, undefined, admin))).toEqual(before);
  });

  describe('with the cache Redis away', () => {
    let proxy: TcpProxy;
    let cut: ReferenceDataInstance;

    beforeAll(async () => {
      proxy = await TcpProxy.start(TEST_REDIS_URL);
      // The cache behind a proxy the test can cut; token revocations still reach Redis directly.
      cut = await suite.start({ CACHE_REDIS_URL: proxy.urlFor(TEST_REDIS_URL) });
    });

    afterAll(async () => {
      await cut?.close();
      await proxy?.close();
    });

    it('answers reads and writes from the database, and caches again once Redis is back', async () => {
      expect((await cut.request('GET', PATH, undefined, admin)).status).toBe(200);
      // Another replica has this list cached: only a version bump, made after the outage, can clear it.
      expect(namesIn(await one.request('GET', `${PATH}?search=away`, undefined, admin))).toEqual([]);
      await proxy.cut();
      const started = Date.now();
      const created = await cut.request('POST', PATH, { name: 'While Redis is away', startDate: '2050-01-01', endDate: '2050-12-31' }, admin);
      expect(created.status).toBe(201);
      for (let read = 0; read < 3; read += 1) {
        const answer = await cut.request('GET', `${PATH}?search=away`, undefined, admin);
        expect(answer.status).toBe(200);
        expect(namesIn(answer)).toEqual(['While Redis is away']);
      }
      const { publicId } = created.body.data as { publicId: string };
      expect((await cut.request('PATCH', `${PATH}/${publicId}`, { name: 'Still away' }, admin)).status).toBe(200);
      expect(namesIn(await cut.request('GET', `${PATH}?search=away`, undefined, admin))).toEqual(['Still away']);
      expect(Date.now() - started).toBeLessThan(scaled(5_000));

      // The replicas that saw Redis all along were told of the writes it could not announce, once it is back.
      await proxy.resume();
      await waitFor(async () => namesIn(await one.request('GET', `${PATH}?search=away`, undefined, admin)).join() === 'Still away', {
        timeoutMs: 10_000,
        intervalMs: 200,
        what: 'the other replica listing the write made while Redis was away',
      });
      // And this replica caches again, once its connection to Redis is back: a row written behind its back is not shown.
      await waitFor(
        async () => {
          await cut.request('GET', `${PATH}?search=behind-again`, undefined, admin);
          return cachedUnderCurrentVersion('behind-again');
        },
        { timeoutMs: 10_000, intervalMs: 100, what: 'the cut replica caching a list again' },
      );
      await insertDirectly('behind-again', 2060);
      expect(namesIn(await cut.request('GET', `${PATH}?search=behind-again`, undefined, admin))).toEqual([]);
    });
  });
});
