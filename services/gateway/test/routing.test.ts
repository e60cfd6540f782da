import { ROUTE_TABLE } from '../src/routes/route-table.js';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';
import { rawRequest } from './support/raw-request.js';

describe('gateway routing', () => {
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    gateway = await startTestGateway();
    token = await bearer(gateway.issuer);
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  it.each([
    ['POST', '/api/auth/refresh', 'identity', false],
    ['GET', '/.well-known/jwks.json', 'identity', false],
    ['GET', '/api/users/usr_123?include=address', 'identity', true],
    ['GET', '/api/academic-sessions?page=2&size=5&search=a%25b', 'reference-data', true],
    ['DELETE', '/api/lookups/municipalities/mun_1', 'reference-data', true],
    ['PUT', '/api/school-profile', 'reference-data', true],
    ['POST', '/api/mobile/feedback', 'feedback', true],
    ['GET', '/api/upload/signed-url/uploads/image/user-1/a.png?expiresIn=600', 'media', true],
    ['GET', '/api/files/signed/uploads/image/user-1/a.png?expires=1&signature=abc', 'media', false],
  ] as const)('forwards %s %s to %s with its path and query', async (method, path, service, authenticated) => {
    const body = method === 'GET' ? undefined : JSON.stringify({ name: 'x' });
    const response = await fetch(gateway.url + path, {
      method,
      headers: { ...(authenticated && { authorization: token }), ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body }),
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ data: { service, method, url: path } });
    expect(gateway.fakes[service].received).toHaveLength(1);
  });

  it('forwards every route of the table to its service at its /api path', async () => {
    for (const route of ROUTE_TABLE) {
      const path = route.path.replace(':publicId', 'pub_1').replace('*', 'uploads/image/user-1/a.png');
      const response = await fetch(gateway.url + path, {
        method: route.method,
        headers: { authorization: token, ...(route.method !== 'GET' && { 'content-type': 'application/json' }) },
        ...(route.method !== 'GET' && { body: '{}' }),
      });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({ route: `${route.method} ${route.path}`, status: 200 });
      const received = gateway.fakes[route.service].received.pop();
      expect(received?.method).toBe(route.method);
      expect(received?.url).toBe((route.upstreamPrefix ?? '') + path);
    }
  });

  it('answers the upload aliases without /api and forwards them to the /api path', async () => {
    const response = await fetch(`${gateway.url}/mobile/uploads/signed-url/uploads/avatar/user-1/me.webp`, {
      headers: { authorization: token },
    });
    expect(response.status).toBe(200);
    expect(gateway.fakes.media.received[0]?.url).toBe('/api/mobile/uploads/signed-url/uploads/avatar/user-1/me.webp');

    const upload = await fetch(`${gateway.url}/upload/signed-urls`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ keys: ['public/image/a.png'] }),
    });
    expect(upload.status).toBe(200);
    expect(gateway.fakes.media.received[1]?.url).toBe('/api/upload/signed-urls');
  });

  it('answers an unknown path with 404 NOT_FOUND itself', async () => {
    const response = await fetch(`${gateway.url}/api/nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ message: 'Route not found', data: null, errorCode: 'NOT_FOUND' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a known path with another method with 404 NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/login/email'],
      ['PATCH', '/api/academic-sessions'],
      ['HEAD', '/api/auth/me'],
      ['POST', '/api/users/usr_1'],
    ] as const) {
      const response = await fetch(gateway.url + path, { method, headers: { authorization: token } });
      expect(response.status).toBe(404);
      if (method !== 'HEAD') expect((await json(response)).errorCode).toBe('NOT_FOUND');
    }
    expect(Object.values(gateway.fakes).every((fake) => fake.received.length === 0)).toBe(true);
  });

  it('keeps a sane incoming request id, replaces an insane one, and forwards it', async () => {
    const kept = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { 'x-request-id': 'req-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('req-abc.123');
    expect(gateway.fakes.identity.received[0]?.headers['x-request-id']).toBe('req-abc.123');

    const replaced = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { 'x-request-id': 'x'.repeat(200) } });
    const generated = replaced.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(gateway.fakes.identity.received[1]?.headers['x-request-id']).toBe(generated);

    const refused = await fetch(`${gateway.url}/api/auth/me`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('forwards Authorization, sets X-Forwarded-*, drops hop-by-hop and caller identity headers', async () => {
    const response = await rawRequest(gateway.url, {
      path: '/api/auth/me',
      headers: {
        authorization: token,
        'x-user-id': 'admin-1',
        'x-user-role': 'admin',
        'x-forwarded-for': '6.6.6.6',
        'x-real-ip': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        'keep-alive': 'timeout=5',
        connection: 'keep-alive, x-secret',
        'x-secret': 'hop',
        'x-device-id': 'device-1',
      },
    });
    expect(response.status).toBe(200);
    const [received] = gateway.fakes.identity.received;
    expect(received?.headers.authorization).toBe(token);
    expect(received?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(received?.headers['x-forwarded-proto']).toBe('http');
    expect(received?.headers['x-device-id']).toBe('device-1');
    for (const dropped of ['x-user-id', 'x-user-role', 'x-real-ip', 'forwarded', 'keep-alive', 'x-secret']) {
      expect(received?.headers[dropped]).toBeUndefined();
    }
  });

  it('does not forward a body sent with a GET, nor its length', async () => {
    const response = await rawRequest(gateway.url, {
      path: '/api/auth/me',
      headers: { authorization: token, 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(gateway.fakes.identity.received[0]?.headers['content-length']).toBeUndefined();
  });

  it('refuses dot segments that would leave the matched route', async () => {
    for (const path of ['/api/files/signed/%2e%2e/%2e%2e/users', '/api/files/signed/../../users', '/api/files/signed/a\\..\\..\\x']) {
      const response = await rawRequest(gateway.url, { path });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).errorCode).toBe('VALIDATION_FAILED');
    }
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('relays an upstream answer with its status, headers and body', async () => {
    gateway.fakes['reference-data'].behaviours.set('/api/academic-sessions', async (_request, reply) => {
      reply.code(409).header('x-custom', 'yes');
      return { message: 'taken', data: null, errorCode: 'ACADEMIC_SESSION_NAME_TAKEN' };
    });
    const response = await fetch(`${gateway.url}/api/academic-sessions`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '2025' }),
    });
    expect(response.status).toBe(409);
    expect(response.headers.get('x-custom')).toBe('yes');
    expect((await json(response)).errorCode).toBe('ACADEMIC_SESSION_NAME_TAKEN');
  });
});
