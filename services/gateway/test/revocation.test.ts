import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SessionRevocations } from '@school/auth';
import { TcpProxy } from '@school/messaging/testing';
import { freePort, scaled } from '@school/testing';
import { bearer, json, REDIS_URL, startTestGateway, type TestGateway } from './support/gateway.js';

const ME = '/api/auth/me';

async function status(gateway: TestGateway, authorization: string): Promise<number> {
  return (await fetch(`${gateway.url}${ME}`, { headers: { authorization } })).status;
}

describe('session revocation through the gateway (copy in memory fed by Redis pub/sub)', () => {
  let replicas: TestGateway[];
  let identityRedis: Redis;

  beforeAll(async () => {
    const first = await startTestGateway();
    replicas = [first, await startTestGateway({ fakes: first.fakes, issuer: first.issuer })];
    identityRedis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    for (const replica of replicas.reverse()) await replica.close();
    await identityRedis.quit();
  });

  it('refuses a revoked session on both replicas on the very next request, tokens verified before included', async () => {
    const [a, b] = replicas as [TestGateway, TestGateway];
    const sessionId = `session-${randomBytes(6).toString('hex')}`;
    const revoked = await bearer(a.issuer, { role: 'admin', sid: sessionId });
    const other = await bearer(a.issuer, { role: 'admin' });
    expect([await status(a, revoked), await status(b, revoked)]).toEqual([200, 200]);

    // What identity does on logout, from its own connection.
    await new SessionRevocations(identityRedis).revoke(sessionId, 60);

    expect([await status(a, revoked), await status(b, revoked)]).toEqual([401, 401]);
    expect([await status(a, other), await status(b, other)]).toEqual([200, 200]);
  });

  it('answers 503 on authenticated routes while Redis is unreachable, and serves again once it is back', async () => {
    const proxy = await TcpProxy.start(REDIS_URL);
    const gateway = await startTestGateway({ env: { REDIS_URL: proxy.urlFor(REDIS_URL) } });
    try {
      const authorization = await bearer(gateway.issuer, { role: 'admin' });
      expect(await status(gateway, authorization)).toBe(200);
      await proxy.cut();
      // The gateway learns of the cut when it reads its subscription's closed socket (or misses a
      // heartbeat, 1 s): a request it reads first is still served from its copy (red once on a loaded machine).
      const statuses: number[] = [];
      const noticedBy = Date.now() + scaled(3_000);
      let response: Response;
      for (;;) {
        response = await fetch(`${gateway.url}${ME}`, { headers: { authorization } });
        statuses.push(response.status);
        if (response.status !== 200 || Date.now() > noticedBy) break;
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(statuses).toEqual([...statuses.slice(1).map(() => 200), 503]);
      expect(await json(response)).toMatchObject({ data: null, errorCode: 'SERVICE_UNAVAILABLE' });
      await proxy.resume();
      const deadline = Date.now() + scaled(10_000);
      while ((await status(gateway, authorization)) !== 200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await status(gateway, authorization)).toBe(200);
    } finally {
      await gateway.close();
      await proxy.close();
    }
  });

  it('answers 503 on authenticated routes when Redis was never reachable', async () => {
    const gateway = await startTestGateway({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const response = await fetch(`${gateway.url}${ME}`, { headers: { authorization: await bearer(gateway.issuer, { role: 'admin' }) } });
      expect(response.status).toBe(503);
      expect(gateway.fakes.identity.received).toHaveLength(0);
    } finally {
      await gateway.close();
    }
  });
});
