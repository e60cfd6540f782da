import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createAuthRedis, SessionRevocations, SUBSCRIBER_NAME_PREFIX } from '@school/auth';
import { closedPort, scaled } from '@school/testing';
import { failureCode, randomPrefix, REDIS_URL } from './helpers.js';

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const answers = (revocations: SessionRevocations, sessionId: string) => revocations.isRevoked(sessionId).then(String, (error: unknown) => failureCode(Promise.reject(error)));

describe('SessionRevocations: a copy in memory kept current by Redis pub/sub', () => {
  let redis: Redis;
  let key: string;
  const started: SessionRevocations[] = [];

  async function replica(options: { timeoutMs?: number; heartbeatMs?: number } = {}): Promise<SessionRevocations> {
    const revocations = new SessionRevocations(redis, { key, ...options });
    started.push(revocations);
    await revocations.start();
    return revocations;
  }

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  beforeEach(() => {
    key = `${randomPrefix()}revoked`;
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((revocations) => revocations.stop()));
    await redis.del(key);
  });
  afterAll(() => redis.quit());

  it('reaches every replica by the time revoke() returns (one turn of the event loop to read it)', async () => {
    const [a, b] = [await replica(), await replica()];
    const identity = new SessionRevocations(redis, { key });
    await expect(a.isRevoked('session-1')).resolves.toBe(false);

    await identity.revoke('session-1', 900);
    await nextTurn();
    await expect(a.isRevoked('session-1')).resolves.toBe(true);
    await expect(b.isRevoked('session-1')).resolves.toBe(true);
    await expect(b.isRevoked('session-2')).resolves.toBe(false);
    const score = Number(await redis.zscore(key, 'session-1'));
    expect(score).toBeGreaterThan(Date.now() + 890_000);
    expect(score).toBeLessThanOrEqual(Date.now() + 900_000);
  });

  it('loads the revocations made before it started, and forgets each when it expires', async () => {
    const identity = new SessionRevocations(redis, { key });
    await identity.revoke('early', 900);
    await identity.revoke('short', 1);
    const late = await replica();
    await expect(late.isRevoked('early')).resolves.toBe(true);
    await expect(late.isRevoked('short')).resolves.toBe(true);
    await sleep(1_100);
    await expect(late.isRevoked('short')).resolves.toBe(false);
    await expect(late.isRevoked('early')).resolves.toBe(true);
  });

  it('after losing its connection, answers 503 until it has reloaded the whole set, then knows what it missed', async () => {
    const a = await replica();
    // As if published while the subscription was down: in the set, never delivered.
    await redis.zadd(key, Date.now() + 60_000, 'missed');
    await expect(a.isRevoked('missed')).resolves.toBe(false);

    const clients = (await redis.client('LIST')) as string;
    const id = /id=(\d+) .*name=(\S+)/g;
    const ids = [...clients.matchAll(id)].filter(([, , name]) => name === `${SUBSCRIBER_NAME_PREFIX}${key}`).map(([, clientId]) => clientId!);
    expect(ids).toHaveLength(1);
    await redis.client('KILL', 'ID', ids[0]!);

    const deadline = Date.now() + scaled(5_000);
    while ((await answers(a, 'missed')) !== 'SERVICE_UNAVAILABLE' && Date.now() < deadline) await nextTurn();
    await expect(answers(a, 'missed')).resolves.toBe('SERVICE_UNAVAILABLE');
    // From the loss on, never a `false`: 503 until reloaded, then the revocation it had missed.
    await until(async () => {
      const answer = await answers(a, 'missed');
      expect(answer).not.toBe('false');
      return answer === 'true';
    }, 'the reload after the reconnection');
  });

  it('answers 503 when its heartbeat goes unanswered, and recovers when Redis answers again', async () => {
    const a = await replica({ timeoutMs: 150, heartbeatMs: 100 });
    const blocker = new Redis(REDIS_URL);
    try {
      // CLIENT PAUSE holds every command of normal clients for the given time.
      await blocker.client('PAUSE', 800, 'ALL');
      await until(async () => (await answers(a, 'any')) === 'SERVICE_UNAVAILABLE', 'the missed heartbeat', 3_000);
    } finally {
      await blocker.client('UNPAUSE');
      await blocker.quit();
    }
    await until(async () => (await answers(a, 'any')) === 'false', 'the recovery');
  });

  it('fails closed with 503 while Redis cannot be reached, in both directions', async () => {
    const down = createAuthRedis(`redis://127.0.0.1:${await closedPort()}`);
    const blind = new SessionRevocations(down, { key });
    try {
      await blind.start(300);
      expect(await failureCode(blind.isRevoked('session-1'))).toBe('SERVICE_UNAVAILABLE');
      expect(await failureCode(blind.revoke('session-1', 60))).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await blind.stop();
      down.disconnect();
    }
  });
});
