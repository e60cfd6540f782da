import { describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { claimRedisDatabase } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseOf = (url: string) => Number(new URL(url).pathname.slice(1));

async function claimedBy(url: string): Promise<string | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return await redis.get('school-test:claimed-by');
  } finally {
    redis.disconnect();
  }
}

describe('a Redis database per test system', () => {
  it('gives runs claiming at once different databases among 1-15, never 0, and frees each at release', async () => {
    const claims = await Promise.all([1, 2, 3].map(() => claimRedisDatabase(REDIS_URL)));
    const owners: (string | null)[] = [];
    try {
      const databases = claims.map((claim) => databaseOf(claim.url));
      expect(new Set(databases).size).toBe(3);
      for (const database of databases) expect(database >= 1 && database <= 15).toBe(true);
      for (const claim of claims) owners.push(await claimedBy(claim.url));
      expect(owners).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    } finally {
      await Promise.all(claims.map((claim) => claim.release()));
    }
    // Released: no longer ours (free, or already claimed by another run on this machine).
    for (const [index, claim] of claims.entries()) expect(await claimedBy(claim.url)).not.toBe(owners[index]);
  });
});
