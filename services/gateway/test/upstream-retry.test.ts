import httpProxy from '@fastify/http-proxy';
import type { AddressInfo } from 'node:net';
import { closedPort } from '@school/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent, buildConnector } from 'undici';
import { registerErrorHandling } from '../src/errors.js';
import { proxyOptions } from '../src/proxy/upstream.js';
import { registerClientAddress } from '../src/request/client-ip.js';
import { ROUTE_TABLE } from '../src/routes/route-table.js';
import { startFakeUpstream, type FakeUpstream } from './support/fake-upstreams.js';

/**
 * The gateway's proxying of one route through an agent whose connections go to `ports` in turn, as
 * a Kubernetes Service's do to its pods: a port with nothing listening refuses the connect for real.
 */
async function proxyThrough(ports: number[], upstream: FakeUpstream): Promise<{ app: FastifyInstance; url: string; connects: () => number }> {
  const connector = buildConnector({});
  let connects = 0;
  const agent = new Agent({ connect: (options, callback) => connector({ ...options, port: String(ports[connects++ % ports.length]) }, callback) });
  const login = ROUTE_TABLE.find((route) => route.method === 'POST' && route.path === '/api/auth/login/email')!;
  const app = Fastify();
  registerErrorHandling(app);
  registerClientAddress(app, 0);
  await app.register(httpProxy, proxyOptions(login, upstream.url, agent, { timeoutMs: 5_000, trustedProxies: 0, forwardingSecret: { current: () => 'upstream-retry-test' } }));
  app.addHook('onClose', () => agent.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, connects: () => connects };
}

const login = (url: string) =>
  fetch(`${url}/api/auth/login/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@b.c', password: 'p' }) });

describe('a POST whose upstream connection was refused', () => {
  let upstream: FakeUpstream;
  let live: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream('identity');
    live = Number(new URL(upstream.url).port);
  });
  afterAll(() => upstream.app.close());
  afterEach(() => {
    upstream.received.length = 0;
  });

  it('goes once more on a new connection and is answered by the replica that is up', async () => {
    const proxy = await proxyThrough([await closedPort(), live], upstream);
    try {
      const response = await login(proxy.url);
      expect(response.status).toBe(200);
      expect(proxy.connects()).toBe(2);
      expect(upstream.received.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/auth/login/email']);
    } finally {
      await proxy.app.close();
    }
  });

  it('goes only once more: refused again, it is 503 with Retry-After', async () => {
    const proxy = await proxyThrough([await closedPort(), await closedPort()], upstream);
    try {
      const response = await login(proxy.url);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(proxy.connects()).toBe(2);
    } finally {
      await proxy.app.close();
    }
  });
});
