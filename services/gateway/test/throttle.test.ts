import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';

function post(gateway: TestGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(gateway.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function statuses(requests: Array<() => Promise<Response>>): Promise<number[]> {
  const result: number[] = [];
  // One after the other: the order of hits is what is being tested.
  for (const request of requests) result.push((await request()).status);
  return result;
}

function times<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

async function expectRateLimited(response: Response, maxRetryAfter: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(await json(response)).toEqual({ message: 'Too many requests, please try again later', data: null, errorCode: 'RATE_LIMITED' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

const unique = () => randomBytes(4).toString('hex');

describe('gateway throttling in Redis', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  it('limits login to 10 per minute per ip and email, lower-cased, across both surfaces', async () => {
    const email = `Login-${unique()}@Example.com`;
    const login = (path: string, address: string) => () => post(gateway, path, { email: address, password: 'x' });
    const results = await statuses([
      ...times(5, () => login('/api/auth/login/email', email)),
      ...times(5, () => login('/api/mobile/auth/login/email', email.toLowerCase())),
    ]);
    expect(results).toEqual(times(10, () => 200));
    await expectRateLimited(await login('/api/auth/login/email', ` ${email.toUpperCase()} `)(), 60);
    expect((await login('/api/auth/login/email', `other-${unique()}@example.com`)()).status).toBe(200);
    expect(gateway.fakes.identity.received).toHaveLength(11);
  });

  it('limits guest feedback to 5 per hour per ip and device, refused bodies included', async () => {
    const device = { 'x-device-id': `device-${unique()}` };
    const valid = () => post(gateway, '/api/mobile/feedback/public', { name: 'A', email: 'a@b.c', subject: 's', message: 'm' }, device);
    const malformed = () => post(gateway, '/api/mobile/feedback/public', '{"name":', device);
    expect(await statuses([malformed, malformed, malformed, valid, valid])).toEqual([400, 400, 400, 200, 200]);
    await expectRateLimited(await valid(), 3600);
    await expectRateLimited(await malformed(), 3600);
    const otherDevice = await post(gateway, '/api/mobile/feedback/public', { message: 'm' }, { 'x-device-id': `device-${unique()}` });
    expect(otherDevice.status).toBe(200);
  });

  it('limits set password to 5 per 15 minutes per user, whatever the surface', async () => {
    const alice = await bearer(gateway.issuer, { sub: `alice-${unique()}` });
    const bob = await bearer(gateway.issuer, { sub: `bob-${unique()}` });
    const setPassword = (authorization: string, path = '/api/mobile/auth/password/set') => () =>
      post(gateway, path, { newPassword: 'Secret#123' }, { authorization });
    expect(await statuses([...times(4, () => setPassword(alice)), setPassword(alice, '/api/auth/password/set')])).toEqual(times(5, () => 200));
    await expectRateLimited(await setPassword(alice)(), 900);
    expect((await setPassword(bob)()).status).toBe(200);
  });

  it('limits forgot to 5 and reset to 10 per 15 minutes per ip', async () => {
    const forgot = () => post(gateway, '/api/mobile/auth/password/forgot', { email: `f-${unique()}@example.com` });
    expect(await statuses(times(5, () => forgot))).toEqual(times(5, () => 200));
    await expectRateLimited(await forgot(), 900);
    const reset = () => post(gateway, '/api/auth/password/reset', { token: unique(), password: 'Secret#123' });
    expect(await statuses(times(10, () => reset))).toEqual(times(10, () => 200));
    await expectRateLimited(await reset(), 900);
  });

  it('limits customer uploads to 10 and signed URLs to 60 per minute per ip, aliases included', async () => {
    const authorization = await bearer(gateway.issuer);
    const upload = (path: string) => () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('png')], { type: 'image/png' }), 'a.png');
      return fetch(gateway.url + path, { method: 'POST', headers: { authorization }, body: form });
    };
    expect(await statuses([...times(5, () => upload('/api/mobile/uploads')), ...times(5, () => upload('/mobile/uploads'))])).toEqual(times(10, () => 200));
    await expectRateLimited(await upload('/api/mobile/uploads')(), 60);

    const signedUrl = () => fetch(`${gateway.url}/mobile/uploads/signed-url/public/avatar/a.webp`, { headers: { authorization } });
    expect(await statuses(times(60, () => signedUrl))).toEqual(times(60, () => 200));
    await expectRateLimited(await signedUrl(), 60);
    // The admin routes have no gateway throttle.
    expect((await fetch(`${gateway.url}/api/upload/signed-url/public/avatar/a.webp`, { headers: { authorization } })).status).toBe(200);
  });

  it('shares counters between gateway replicas', async () => {
    const replica = await startTestGateway({ fakes: gateway.fakes, issuer: gateway.issuer, deps: { throttleKeyPrefix: gateway.keyPrefix } });
    try {
      const device = { 'x-device-id': `device-${unique()}` };
      const feedback = (target: TestGateway) => () => post(target, '/api/mobile/feedback/public', { message: 'm' }, device);
      expect(await statuses([feedback(gateway), feedback(replica), feedback(gateway), feedback(replica), feedback(gateway)])).toEqual(times(5, () => 200));
      expect((await feedback(replica)()).status).toBe(429);
    } finally {
      await replica.close();
    }
  });
});

describe('gateway throttling behind a trusted proxy', () => {
  it('keys on the first X-Forwarded-For entry only when TRUST_PROXY is set', async () => {
    const trusting = await startTestGateway({ env: { TRUST_PROXY: 'true' } });
    const direct = await startTestGateway({ fakes: trusting.fakes, issuer: trusting.issuer });
    try {
      const forgot = (target: TestGateway, forwardedFor: string) => () =>
        post(target, '/api/auth/password/forgot', { email: 'a@b.c' }, { 'x-forwarded-for': forwardedFor });
      expect(await statuses(times(5, (index) => forgot(trusting, `10.0.0.1, 10.9.9.${index}`)))).toEqual(times(5, () => 200));
      expect((await forgot(trusting, '10.0.0.1')()).status).toBe(429);
      expect((await forgot(trusting, '10.0.0.2, 10.0.0.1')()).status).toBe(200);
      expect(trusting.fakes.identity.received.at(-1)?.headers['x-forwarded-for']).toBe('10.0.0.2, 10.0.0.1, 127.0.0.1');

      // Without TRUST_PROXY a client cannot escape its limit by inventing addresses.
      expect(await statuses(times(5, (index) => forgot(direct, `10.1.1.${index}`)))).toEqual(times(5, () => 200));
      expect((await forgot(direct, '10.1.1.99')()).status).toBe(429);
      expect(trusting.fakes.identity.received.at(-1)?.headers['x-forwarded-for']).toBe('127.0.0.1');
    } finally {
      await direct.close();
      await trusting.close();
    }
  });
});

describe('gateway throttling while Redis is down', () => {
  it('falls back to per-process windows with the same limits and warns once', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    // Nothing listens on port 1. The client is the test's so it can close without ioredis's 2 s disconnect wait.
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, disconnectTimeout: 50 });
    redis.on('error', () => {});
    const gateway = await startTestGateway({ deps: { logger, redis } });
    try {
      const email = `down-${unique()}@example.com`;
      const login = () => post(gateway, '/api/mobile/auth/login/email', { email, password: 'x' });
      expect(await statuses(times(10, () => login))).toEqual(times(10, () => 200));
      await expectRateLimited(await login(), 60);
      await expectRateLimited(await login(), 60);
      const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40);
      expect(warnings.map((line) => line.msg)).toEqual(['Redis unreachable: throttling falls back to per-process memory windows']);

      const ready = await fetch(`${gateway.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await json(ready)).data as { checks: { redis: string } }).checks.redis).toBe('down');
    } finally {
      await gateway.close();
      redis.disconnect();
    }
  });
});
