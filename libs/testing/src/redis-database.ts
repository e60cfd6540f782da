import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { scaled } from './time-scale.js';

/**
 * The services have fixed Redis key names (throttles, revocations, queues), so a test system gets a
 * Redis database of its own, 1 to 15 (0 is `npm start`'s). A database is claimed with a key set only
 * if absent, kept alive while the run lasts and deleted at release, so two runs never share one; a
 * run that died leaves its claim to expire.
 */
const CLAIM_KEY = 'school-test:claimed-by';
const CLAIM_TTL_SECONDS = 600;
const REFRESH_EVERY_MS = 60_000;
const DATABASES = Array.from({ length: 15 }, (_, index) => index + 1);
const RELEASE_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface ClaimedRedisDatabase {
  /** `baseUrl` with this database. */
  url: string;
  release(): Promise<void>;
}

async function withRedis<T>(url: string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

function databaseUrl(baseUrl: string, database: number): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function tryClaim(baseUrl: string, owner: string): Promise<number | undefined> {
  return withRedis(baseUrl, async (redis) => {
    for (const database of [...DATABASES].sort(() => Math.random() - 0.5)) {
      await redis.select(database);
      if ((await redis.set(CLAIM_KEY, owner, 'EX', CLAIM_TTL_SECONDS, 'NX')) === 'OK') return database;
    }
    return undefined;
  });
}

export async function claimRedisDatabase(baseUrl: string): Promise<ClaimedRedisDatabase> {
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const waitMs = scaled(300_000);
  const giveUpAt = Date.now() + waitMs;
  let database = await tryClaim(baseUrl, owner);
  while (database === undefined) {
    if (Date.now() > giveUpAt) throw new Error(`no Redis database of ${baseUrl} became free within ${waitMs / 1000} s: 1-15 are all claimed by other test runs (key ${CLAIM_KEY})`);
    await sleep(1_000);
    database = await tryClaim(baseUrl, owner);
  }
  const url = databaseUrl(baseUrl, database);
  const refresh = setInterval(() => void withRedis(url, (redis) => redis.expire(CLAIM_KEY, CLAIM_TTL_SECONDS)).catch(() => undefined), REFRESH_EVERY_MS);
  refresh.unref();
  return {
    url,
    async release() {
      clearInterval(refresh);
      await withRedis(url, (redis) => redis.eval(RELEASE_IF_OWNER, 1, CLAIM_KEY, owner));
    },
  };
}
