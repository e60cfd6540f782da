import { setTimeout as sleep } from 'node:timers/promises';
import { closedPort, scaled, waitFor } from '@school/testing';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';

const UPSTREAM_TIMEOUT_MS = 400;

describe('gateway in front of failing upstreams', () => {
  let gateway: TestGateway;
  let authorization: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { FEEDBACK_URL: `http://127.0.0.1:${await closedPort()}`, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) } });
    authorization = await bearer(gateway.issuer, { role: 'admin' });
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  it('answers 503 SERVICE_UNAVAILABLE at once when a service is down', async () => {
    const started = Date.now();
    const response = await fetch(`${gateway.url}/api/mobile/feedback/public`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'A', email: 'a@b.c', subject: 's', message: 'm' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await json(response)).toEqual({ message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(scaled(1_000));
  });

  it('answers 503 once the upstream timeout has passed without an answer', async () => {
    gateway.fakes.identity.behaviours.set('/api/auth/me', () => new Promise(() => {}));
    const started = Date.now();
    const response = await fetch(`${gateway.url}/api/auth/me`, { headers: { authorization } });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await json(response)).errorCode).toBe('SERVICE_UNAVAILABLE');
    expect(elapsed).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(UPSTREAM_TIMEOUT_MS + scaled(1_500));
  });

  it("relays a service's own 503 once, without retrying it", async () => {
    gateway.fakes.identity.behaviours.set('/api/auth/permissions', async (_request, reply) => {
      reply.code(503);
      return { message: 'Database down', data: null, errorCode: 'SERVICE_UNAVAILABLE' };
    });
    const response = await fetch(`${gateway.url}/api/auth/permissions`, { headers: { authorization } });
    expect(response.status).toBe(503);
    // A service's 503 that says nothing of when to come back gets the gateway's Retry-After.
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await json(response)).message).toBe('Database down');
    await sleep(200);
    expect(gateway.fakes.identity.received).toHaveLength(1);
  });

  it('reports readiness per service: 503 naming the one that is down', async () => {
    gateway.fakes.media.ready = false;
    const response = await fetch(`${gateway.url}/health/ready`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await json(response)).toEqual({
      message: 'Not ready',
      data: {
        status: 'unavailable',
        checks: { redis: 'up', identity: 'up', 'reference-data': 'up', feedback: 'down', media: 'down', notifier: 'up' },
      },
      errorCode: 'SERVICE_UNAVAILABLE',
    });
  });

  it('answers /health/live with the success envelope', async () => {
    const response = await fetch(`${gateway.url}/health/live`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'OK', data: { status: 'ok' }, errorCode: null });
  });

  it('passes Server-Sent Events through as they happen, beyond the upstream timeout', async () => {
    let sendSecond!: () => void;
    const secondAllowed = new Promise<void>((resolve) => (sendSecond = resolve));
    let upstreamClosed = false;
    gateway.fakes.notifier.behaviours.set('/api/notifications/stream', async (request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      reply.raw.write('event: feedback.submitted\ndata: {"id":"1"}\n\n');
      request.raw.socket.once('close', () => (upstreamClosed = true));
      await secondAllowed;
      reply.raw.write('event: feedback.submitted\ndata: {"id":"2"}\n\n');
    });

    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/api/notifications/stream`, { headers: { authorization }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();

    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain('data: {"id":"1"}');
    // Longer than UPSTREAM_TIMEOUT_MS of silence: a stream has no upstream timeout.
    await sleep(UPSTREAM_TIMEOUT_MS * 2);
    sendSecond();
    const second = decoder.decode((await reader.read()).value);
    expect(second).toContain('data: {"id":"2"}');

    controller.abort();
    // The client going away closes the upstream stream too, however loaded the machine.
    await waitFor(() => upstreamClosed || undefined, { what: 'the upstream stream closed after the client left' });
  });
});

describe('gateway readiness when everything is up', () => {
  it('answers 200 with every dependency up', async () => {
    const gateway = await startTestGateway();
    try {
      const response = await fetch(`${gateway.url}/health/ready`);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({
        message: 'Ready',
        data: { status: 'ok', checks: { redis: 'up', identity: 'up', 'reference-data': 'up', feedback: 'up', media: 'up', notifier: 'up' } },
        errorCode: null,
      });
    } finally {
      await gateway.close();
    }
  });
});
