import { scaled } from '@school/testing';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';
import { exchange, parseResponse, type ParsedResponse } from './support/raw-socket.js';

const BODY_TIMEOUT_MS = 400;
const UPLOAD_TIMEOUT_MS = 2_000;
const HEADERS_TIMEOUT_MS = 800;
const KEEP_ALIVE_TIMEOUT_MS = 300;

const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };

function expectSecurityHeaders(headers: Headers | Record<string, string>): void {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect({ name, value: get(name) }).toEqual({ name, value });
}

/** The envelope of contract §3 on a raw answer: right status and code, no path echoed, no framework's name. */
function expectEnvelope(response: ParsedResponse, status: number, errorCode: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toMatchObject({ data: null, errorCode });
  expect(typeof body.message).toBe('string');
  expect(response.body).not.toMatch(/FST_|aaaa|statusCode|Bad Request|Client Error/);
  expectSecurityHeaders(response.headers);
}

function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ host: 'gateway.test', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('gateway HTTP layer (contract §3)', () => {
  let gateway: TestGateway;
  let authorization: string;

  beforeAll(async () => {
    gateway = await startTestGateway({
      env: {
        REQUEST_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
        UPLOAD_BODY_TIMEOUT_MS: String(UPLOAD_TIMEOUT_MS),
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
      },
    });
    authorization = await bearer(gateway.issuer, { role: 'admin' });
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  describe('headers', () => {
    it('sends the security headers on proxied answers, over what a service sent, and on the gateway own answers', async () => {
      gateway.fakes['reference-data'].behaviours.set('/api/academic-sessions', (_request, reply) => {
        reply.header('x-frame-options', 'SAMEORIGIN').header('cache-control', 'max-age=60');
      });
      const proxied = await fetch(`${gateway.url}/api/academic-sessions`, { headers: { authorization } });
      expect(proxied.status).toBe(200);
      expectSecurityHeaders(proxied.headers);
      // Not a token or profile route: the service decides its caching.
      expect(proxied.headers.get('cache-control')).toBe('max-age=60');

      const answers = await Promise.all([
        fetch(`${gateway.url}/health/live`),
        fetch(`${gateway.url}/api/nope`),
        fetch(`${gateway.url}/api/auth/me`),
        fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      ]);
      expect(answers.map((response) => response.status)).toEqual([200, 404, 401, 400]);
      for (const response of answers) expectSecurityHeaders(response.headers);
    });

    it('marks token and profile answers no-store, errors included, over what the service sent', async () => {
      gateway.fakes.identity.behaviours.set('/api/auth/me', (_request, reply) => {
        reply.header('cache-control', 'public, max-age=600');
      });
      const answers = await Promise.all([
        fetch(`${gateway.url}/api/auth/login/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@b.c', password: 'x' }) }),
        fetch(`${gateway.url}/api/mobile/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
        fetch(`${gateway.url}/api/auth/me`, { headers: { authorization } }),
        fetch(`${gateway.url}/api/mobile/auth/me`),
        fetch(`${gateway.url}/api/users/usr_1`, { headers: { authorization } }),
        fetch(`${gateway.url}/api/users`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}' }),
      ]);
      expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 401, 200, 200]);
      for (const response of answers) expect(response.headers.get('cache-control')).toBe('no-store');
      expect((await fetch(`${gateway.url}/health/live`)).headers.get('cache-control')).toBeNull();
    });
  });

  describe('errors the HTTP layer raises', () => {
    it('answers a path or query over 2048 bytes with 414 URI_TOO_LONG, whatever the route, without echoing it', async () => {
      const long = 'a'.repeat(3_000);
      for (const path of [`/api/users/${long}`, `/api/auth/me?search=${long}`, `/api/${long}`, `/api/upload/file/${long}`]) {
        const answer = parseResponse((await exchange(gateway.url, head('GET', path, { authorization }), { giveUpMs: 300 })).text);
        expectEnvelope(answer, 414, 'URI_TOO_LONG');
      }
      // Past Node's 16 KiB header limit the request line is still a path over the limit.
      const huge = await exchange(gateway.url, head('GET', `/api/users/${'a'.repeat(20_000)}`));
      expectEnvelope(parseResponse(huge.text), 414, 'URI_TOO_LONG');
      expect(huge.closedAfterMs).toBeLessThan(scaled(1_000));
      expect(gateway.fakes.identity.received).toHaveLength(0);
      // At the limit the path is routed.
      const atLimit = await fetch(`${gateway.url}/api/users/${'b'.repeat(2_048 - '/api/users/'.length)}`, { headers: { authorization } });
      expect(atLimit.status).toBe(200);
    });

    it('answers headers over 16 KiB with 431 HEADERS_TOO_LARGE and closes', async () => {
      const answer = await exchange(gateway.url, head('GET', '/api/auth/me', { 'x-padding': 'a'.repeat(20_000) }));
      expectEnvelope(parseResponse(answer.text), 431, 'HEADERS_TOO_LARGE');
      expect(parseResponse(answer.text).headers.connection).toBe('close');
      expect(answer.closedAfterMs).toBeLessThan(scaled(1_000));
    });

    it('answers malformed requests with 400 VALIDATION_FAILED in the envelope', async () => {
      const requests = [
        'HELLO WORLD\r\n\r\n',
        'GET /api/auth/me HTTP/1.1\r\nHost: gateway.test\r\nBad Header\r\n\r\n',
        'POST /api/auth/refresh HTTP/1.1\r\nHost: gateway.test\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
        // No Host: Node would answer an empty 400 of its own.
        'GET /api/auth/me HTTP/1.1\r\n\r\n',
        // A percent-encoding the router cannot decode.
        head('GET', '/api/users/%E0%A4%A'),
      ];
      for (const request of requests) {
        const answer = parseResponse((await exchange(gateway.url, request, { giveUpMs: 300 })).text);
        expectEnvelope(answer, 400, 'VALIDATION_FAILED');
        expect(JSON.parse(answer.body)).toHaveProperty('errors');
      }
    });
  });

  describe('timeouts', () => {
    const jsonHead = (length: number) => head('POST', '/api/auth/refresh', { 'content-type': 'application/json', 'content-length': length });

    it('answers a JSON body trickling past its deadline with 408 REQUEST_TIMEOUT and closes the connection', async () => {
      const body = JSON.stringify({ refreshToken: 'x'.repeat(100) });
      const answer = await exchange(gateway.url, jsonHead(body.length) + body.slice(0, 10), {
        drip: [...body.slice(10)],
        dripEveryMs: 50,
      });
      const response = parseResponse(answer.text);
      expectEnvelope(response, 408, 'REQUEST_TIMEOUT');
      expect(response.headers.connection).toBe('close');
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(answer.closedAfterMs).toBeLessThan(BODY_TIMEOUT_MS + scaled(1_000));
      expect(gateway.fakes.identity.received).toHaveLength(0);
    });

    it('answers headers that never end, and a connection that never speaks, with 408 and closes', async () => {
      const slowHeaders = ['GET /api/auth/me HTTP/1.1\r\nhost: gateway.test\r\n', ['x-slow: 1\r\n', 'x-slow: 2\r\n']] as const;
      for (const [start, drip] of [slowHeaders, ['', []] as const]) {
        const answer = await exchange(gateway.url, start, { drip: [...drip], dripEveryMs: 200 });
        expectEnvelope(parseResponse(answer.text), 408, 'REQUEST_TIMEOUT');
        expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
        expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + scaled(1_000));
      }
    });

    const boundary = 'slow-upload';
    const prefix = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`;
    const suffix = `\r\n--${boundary}--\r\n`;
    const uploadHead = (length: number) =>
      head('POST', '/api/upload?uploadType=image', { authorization, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length });

    it('lets an upload trickle past the JSON deadline and forwards it whole', async () => {
      const fileBytes = Array.from({ length: 10 }, (_, index) => `chunk-${index};`);
      const body = prefix + fileBytes.join('') + suffix;
      // 11 pieces 60 ms apart: longer than the JSON deadline, well within the upload one.
      const answer = await exchange(gateway.url, uploadHead(Buffer.byteLength(body)) + prefix, { drip: [...fileBytes, suffix], dripEveryMs: 60, giveUpMs: 3_000 });
      const response = parseResponse(answer.text);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({ data: { service: 'media', url: '/api/upload?uploadType=image' } });
      expect(gateway.fakes.media.received[0]?.body.toString('utf8')).toBe(body);
    });

    it('answers an upload still trickling at the upload deadline with 408 REQUEST_TIMEOUT and closes', async () => {
      const answer = await exchange(gateway.url, uploadHead(100_000) + prefix, { drip: Array.from({ length: 40 }, () => 'a'), dripEveryMs: 100 });
      expectEnvelope(parseResponse(answer.text), 408, 'REQUEST_TIMEOUT');
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(UPLOAD_TIMEOUT_MS - 50);
      expect(answer.closedAfterMs).toBeLessThan(UPLOAD_TIMEOUT_MS + scaled(1_000));
    });

    it('closes a kept-alive connection idle for the keep-alive timeout', async () => {
      const answer = await exchange(gateway.url, head('GET', '/health/live'));
      expect(parseResponse(answer.text).status).toBe(200);
      expect(parseResponse(answer.text).headers['keep-alive']).toBe(`timeout=${Math.floor(KEEP_ALIVE_TIMEOUT_MS / 1000)}`);
      // Node waits one second more than it advertises, so a client never reuses a closing connection.
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 50);
      expect(answer.closedAfterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + scaled(1_700));
    });
  });

  it('still reads a body that arrives in pieces within its deadline', async () => {
    const body = JSON.stringify({ refreshToken: 'abc' });
    const answer = await exchange(gateway.url, head('POST', '/api/auth/refresh', { 'content-type': 'application/json', 'content-length': body.length }), {
      drip: [body.slice(0, 5), body.slice(5)],
      dripEveryMs: 100,
      giveUpMs: 1_000,
    });
    const response = parseResponse(answer.text);
    expect(response.status).toBe(200);
    expect(gateway.fakes.identity.received[0]?.body.toString('utf8')).toBe(body);
    expect(await json(await fetch(`${gateway.url}/health/live`))).toMatchObject({ errorCode: null });
  });
});
