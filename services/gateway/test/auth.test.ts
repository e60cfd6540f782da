import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';

describe('gateway authentication on jwt routes', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  async function expectUnauthenticated(authorization: string | undefined, path = '/api/auth/me'): Promise<void> {
    const response = await fetch(gateway.url + path, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await json(response)).toEqual({ message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
  }

  it('refuses a missing or malformed bearer token without touching the upstream', async () => {
    await expectUnauthenticated(undefined);
    await expectUnauthenticated('Basic dXNlcjpwYXNz');
    await expectUnauthenticated('Bearer not-a-jwt');
    await expectUnauthenticated(undefined, '/api/notifications/stream');
    expect(gateway.fakes.identity.received).toHaveLength(0);
    expect(gateway.fakes.notifier.received).toHaveLength(0);
  });

  it('refuses alg none, HS256, expired and foreign-audience tokens', async () => {
    const claims = { sub: 'user-1', sid: 'session-1', role: 'admin' };
    await expectUnauthenticated(`Bearer ${await gateway.issuer.sign(claims, { alg: 'none' })}`);
    await expectUnauthenticated(`Bearer ${await gateway.issuer.sign(claims, { alg: 'HS256' })}`);
    await expectUnauthenticated(`Bearer ${await gateway.issuer.sign(claims, { expiresIn: -60 })}`);
    await expectUnauthenticated(`Bearer ${await gateway.issuer.sign(claims, { audience: 'someone-else' })}`);
    expect(gateway.fakes.identity.received).toHaveLength(0);
  });

  it('proxies a valid token with Authorization intact', async () => {
    const authorization = await bearer(gateway.issuer, { role: 'admin' });
    const response = await fetch(`${gateway.url}/api/users?page=1`, { headers: { authorization } });
    expect(response.status).toBe(200);
    expect(gateway.fakes.identity.received[0]?.headers.authorization).toBe(authorization);
  });

  it('refuses an unauthenticated upload before reading its body', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1024)], { type: 'image/png' }), 'a.png');
    const response = await fetch(`${gateway.url}/upload`, { method: 'POST', body: form });
    expect(response.status).toBe(401);
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('lets public routes through without a token', async () => {
    const response = await fetch(`${gateway.url}/api/mobile/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: 'r' }),
    });
    expect(response.status).toBe(200);
  });
});
