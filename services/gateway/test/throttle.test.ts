import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { expectRateLimited } from './support/rate-limited.js';

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
    const results = await statuses([...times(5, () => login('/api/auth/login/email', email)), ...times(5, () => login('/api/mobile/auth/login/email', email.toLowerCase()))]);
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
    const setPassword =
      (authorization: string, path = '/api/mobile/auth/password/set') =>
      () =>
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

describe('gateway throttling per client ip', () => {
  let gateway: TestGateway;
  // One proxy in front: each test speaks from its own address, so counts never mix between tests.
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const uniqueIp = () => `10.${randomBytes(3).join('.')}`;

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => gateway.close());

  it('limits login to 100 per minute per ip whatever the email, both surfaces counting together', async () => {
    const ip = uniqueIp();
    const login = (path: string, address = from(ip)) => post(gateway, path, { email: `spray-${unique()}@example.com`, password: 'x' }, address);
    const first = await Promise.all(times(100, (index) => login(index % 2 ? '/api/auth/login/email' : '/api/mobile/auth/login/email')));
    expect(first.map((response) => response.status)).toEqual(times(100, () => 200));
    await expectRateLimited(await login('/api/auth/login/email'), 60);
    await expectRateLimited(await login('/api/mobile/auth/login/email'), 60);
    expect((await login('/api/auth/login/email', from(uniqueIp()))).status).toBe(200);
    expect(gateway.fakes.identity.received).toHaveLength(101);
  });

  it('limits email-verify resend to 5 per 15 minutes per ip across both surfaces', async () => {
    const ip = uniqueIp();
    const resend =
      (path: string, address = from(ip)) =>
      () =>
        post(gateway, path, { email: `r-${unique()}@example.com` }, address);
    expect(await statuses([...times(3, () => resend('/api/auth/email/verify/resend')), ...times(2, () => resend('/api/mobile/auth/email/verify/resend'))])).toEqual(
      times(5, () => 200),
    );
    await expectRateLimited(await resend('/api/auth/email/verify/resend')(), 900);
    await expectRateLimited(await resend('/api/mobile/auth/email/verify/resend')(), 900);
    expect((await resend('/api/auth/email/verify/resend', from(uniqueIp()))()).status).toBe(200);
  });
});

describe('gateway client ip behind trusted proxies (contract §4)', () => {
  const forgot = (target: TestGateway, forwardedFor?: string) => () =>
    post(target, '/api/auth/password/forgot', { email: 'a@b.c' }, forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });
  const lastForwardedFor = (target: TestGateway) => target.fakes.identity.received.at(-1)?.headers['x-forwarded-for'];

  it('keys on the entry the trusted proxy wrote: a forged leftmost entry changes nothing', async () => {
    // `true` still means one proxy.
    const gateway = await startTestGateway({ env: { TRUST_PROXY: 'true' } });
    try {
      expect(await statuses(times(5, (index) => forgot(gateway, `10.9.9.${index}, 10.0.0.1`)))).toEqual(times(5, () => 200));
      expect(lastForwardedFor(gateway)).toBe('10.0.0.1, 127.0.0.1');
      expect((await forgot(gateway, '203.0.113.77, 10.0.0.1')()).status).toBe(429);
      expect((await forgot(gateway, '10.0.0.1, 10.0.0.2')()).status).toBe(200);
      expect(lastForwardedFor(gateway)).toBe('10.0.0.2, 127.0.0.1');
    } finally {
      await gateway.close();
    }
  });

  it('takes the N-th entry from the right behind N proxies, and the socket address when fewer entries came', async () => {
    const gateway = await startTestGateway({ env: { TRUST_PROXY: '2' } });
    try {
      expect(await statuses(times(5, (index) => forgot(gateway, `forged-${index}, 203.0.113.5, 10.0.0.9`)))).toEqual(times(5, () => 200));
      expect(lastForwardedFor(gateway)).toBe('203.0.113.5, 10.0.0.9, 127.0.0.1');
      expect((await forgot(gateway, '203.0.113.5, 10.0.0.8')()).status).toBe(429);

      // One entry for two proxies: it did not come through both, so the entry may be the client's own.
      expect(await statuses(times(5, (index) => forgot(gateway, `198.51.100.${index}`)))).toEqual(times(5, () => 200));
      expect(lastForwardedFor(gateway)).toBe('127.0.0.1');
      expect((await forgot(gateway)()).status).toBe(429);
    } finally {
      await gateway.close();
    }
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const gateway = await startTestGateway();
    try {
      expect(await statuses(times(5, (index) => forgot(gateway, `10.1.1.${index}`)))).toEqual(times(5, () => 200));
      expect((await forgot(gateway, '10.1.1.99')()).status).toBe(429);
      expect(lastForwardedFor(gateway)).toBe('127.0.0.1');
    } finally {
      await gateway.close();
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
