import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { scaled } from '@school/testing';

/** Short enough to test, long enough for any honest client on loopback. */
const BODY_TIMEOUT_MS = 1_000;

let system: RunningSystem;

beforeAll(async () => {
  // One proxy in front (tests name their client in X-Forwarded-For); JSON bodies cut after 1 s.
  system = await startSystem({ services: ['identity', 'reference-data'], env: { TRUST_PROXY: '1', REQUEST_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) } });
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
});

const api = (path: string, init?: RequestInit) => fetch(`${system.gatewayUrl}${path}`, init);
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  api(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const unique = () => randomBytes(4).toString('hex');
const randomIp = () => `203.0.${randomBytes(2).join('.')}`;

function expectSecurityHeaders(get: (name: string) => string | null | undefined): void {
  expect({ nosniff: get('x-content-type-options'), referrer: get('referrer-policy'), frame: get('x-frame-options') }).toEqual({
    nosniff: 'nosniff',
    referrer: 'no-referrer',
    frame: 'DENY',
  });
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  closedAfterMs: number;
}

/** Writes `head` on a raw socket, then each of `drip` every `everyMs`, and reads until the gateway closes (or `giveUpMs`). */
async function raw(head: string, options: { drip?: string[]; everyMs?: number; giveUpMs?: number } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(system.gatewayUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  let open = true;
  const closed = new Promise<void>((resolve) => socket.once('close', () => ((open = false), resolve())));
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  socket.write(head);
  void (async () => {
    for (const piece of options.drip ?? []) {
      await sleep(options.everyMs ?? 100);
      if (open) socket.write(piece);
    }
  })();
  const stop = new AbortController();
  await Promise.race([closed, sleep(options.giveUpMs ?? 5_000, undefined, { signal: stop.signal }).catch(() => {})]);
  stop.abort();
  const closedAfterMs = open ? Number.POSITIVE_INFINITY : Date.now() - started;
  socket.destroy();
  const text = Buffer.concat(chunks).toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4), closedAfterMs };
}

function expectRawEnvelope(answer: RawAnswer, status: number, errorCode: string): void {
  expect(answer.status).toBe(status);
  expect(JSON.parse(answer.body)).toMatchObject({ message: expect.any(String), data: null, errorCode });
  expect(answer.body).not.toMatch(/FST_|statusCode|aaaa/);
  expectSecurityHeaders((name) => answer.headers[name]);
}

describe('gateway hardening through the whole system (issue 9)', () => {
  it('sends the security headers everywhere, and no-store on a real login and me', async () => {
    const login = await post('/api/auth/login/email', { email: 'admin@example.com', password: 'Admin123!' });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders((name) => login.headers.get(name));
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;

    const me = await api('/api/auth/me', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders((name) => me.headers.get(name));

    for (const response of [
      await api('/health/ready'),
      await api('/api/nothing-here'),
      await api('/api/academic-sessions', { headers: { authorization: `Bearer ${accessToken}` } }),
    ]) {
      expectSecurityHeaders((name) => response.headers.get(name));
    }
  });

  it('limits login to 100 per minute per ip whatever the email; a forged leftmost X-Forwarded-For entry changes nothing', async () => {
    const client = randomIp();
    const login = () => post('/api/mobile/auth/login/email', { email: `nobody-${unique()}@example.com`, password: 'Wrong#123' }, { 'x-forwarded-for': `${randomIp()}, ${client}` });
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => login()))).map((response) => response.status));
    }
    expect(statuses).toEqual(Array.from({ length: 100 }, () => 401));
    const refused = await post('/api/auth/login/email', { email: `other-${unique()}@example.com`, password: 'Wrong#123' }, { 'x-forwarded-for': `1.2.3.4, ${client}` });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ data: null, errorCode: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another client behind the same proxy is not affected.
    expect((await post('/api/auth/login/email', { email: 'admin@example.com', password: 'Admin123!' }, { 'x-forwarded-for': randomIp() })).status).toBe(200);
  }, 60_000);

  it('limits email-verify resend to 5 per 15 minutes per ip, both surfaces together', async () => {
    const from = { 'x-forwarded-for': randomIp() };
    const statuses: number[] = [];
    for (const path of [
      '/api/auth/email/verify/resend',
      '/api/mobile/auth/email/verify/resend',
      '/api/auth/email/verify/resend',
      '/api/mobile/auth/email/verify/resend',
      '/api/auth/email/verify/resend',
    ]) {
      statuses.push((await post(path, { email: `resend-${unique()}@example.com` }, from)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await post('/api/mobile/auth/email/verify/resend', { email: `resend-${unique()}@example.com` }, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
  });

  it('answers the HTTP layer errors in the envelope: 414, 431, 400', async () => {
    const host = 'host: gateway.test\r\n';
    expectRawEnvelope(await raw(`GET /api/users/${'a'.repeat(3_000)} HTTP/1.1\r\n${host}\r\n`, { giveUpMs: 500 }), 414, 'URI_TOO_LONG');
    expectRawEnvelope(await raw(`GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n`), 414, 'URI_TOO_LONG');
    expectRawEnvelope(await raw(`GET /api/auth/me HTTP/1.1\r\n${host}x-padding: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
    expectRawEnvelope(await raw('NOT HTTP AT ALL\r\n\r\n'), 400, 'VALIDATION_FAILED');
    expectRawEnvelope(await raw('GET /api/auth/me HTTP/1.1\r\n\r\n', { giveUpMs: 500 }), 400, 'VALIDATION_FAILED');
  });

  it('answers a body still trickling at its deadline with 408 REQUEST_TIMEOUT and closes the connection', async () => {
    const body = JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' });
    const head = `POST /api/auth/login/email HTTP/1.1\r\nhost: gateway.test\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const answer = await raw(head + body.slice(0, 5), { drip: [...body.slice(5)], everyMs: 100 });
    expectRawEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 100);
    expect(answer.closedAfterMs).toBeLessThan(BODY_TIMEOUT_MS + scaled(2_000));
  });
});
