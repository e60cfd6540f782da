import { json, startTestGateway, type TestGateway } from './support/gateway.js';
import { startFakeUpstream, type FakeUpstream } from './support/fake-upstreams.js';
import { closedPort, RoundRobinBalancer } from '@school/testing';

const UNAVAILABLE = { message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' };

/** Issue 31 item 11: identity as two replicas behind one round-robin balancer that does not retry, one of them dead. */
describe('gateway in front of a dead replica', () => {
  let gateway: TestGateway;
  let live: FakeUpstream;
  let balancer: RoundRobinBalancer;

  beforeAll(async () => {
    live = await startFakeUpstream('identity');
    balancer = await RoundRobinBalancer.start([live.url, `http://127.0.0.1:${await closedPort()}`]);
    gateway = await startTestGateway({ env: { IDENTITY_URL: balancer.url } });
  });
  afterAll(async () => {
    await gateway.close();
    await balancer.close();
    await live.app.close();
  });
  afterEach(() => {
    live.received.length = 0;
    live.behaviours.clear();
  });

  it('answers every GET from the live replica: the one given to the dead replica goes again on a new connection', async () => {
    // Each answer ends its connection, so each request opens one, and the balancer gives every other one to the dead replica.
    live.behaviours.set('/.well-known/jwks.json', (_request, reply) => {
      reply.header('connection', 'close');
    });
    const statuses: number[] = [];
    for (let request = 0; request < 6; request += 1) {
      const answer = await fetch(`${gateway.url}/.well-known/jwks.json`);
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(6).fill(200));
    expect(balancer.given[1]).toBeGreaterThanOrEqual(3);
    expect(live.received.filter((request) => request.url === '/.well-known/jwks.json')).toHaveLength(6);
  });
});

describe('gateway in front of replicas all dead', () => {
  let gateway: TestGateway;
  let balancer: RoundRobinBalancer;

  beforeAll(async () => {
    balancer = await RoundRobinBalancer.start([`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`]);
    gateway = await startTestGateway({ env: { IDENTITY_URL: balancer.url, FEEDBACK_URL: `http://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(async () => {
    await gateway.close();
    await balancer.close();
  });

  it.each([
    ['GET behind the balancer', 'GET', '/.well-known/jwks.json'],
    ['POST behind the balancer', 'POST', '/api/auth/login/email'],
    ['POST to a refused address', 'POST', '/api/mobile/feedback/public'],
  ])('answers a %s 503 SERVICE_UNAVAILABLE with Retry-After', async (_name, method, path) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@b.c', password: 'p' }) }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await json(response)).toEqual(UNAVAILABLE);
  });
});

describe('gateway in front of a replica that dies holding a request', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  it('does not send a POST again once its connection was open: the service may have processed it; 503 with Retry-After', async () => {
    gateway.fakes.identity.behaviours.set('/api/auth/login/email', (request) => {
      request.raw.socket.destroy();
      return new Promise(() => {});
    });
    const response = await fetch(`${gateway.url}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', password: 'a password' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await json(response)).toEqual(UNAVAILABLE);
    expect(gateway.fakes.identity.received.filter((request) => request.url === '/api/auth/login/email')).toHaveLength(1);
  });
});
