import SwaggerParser from '@apidevtools/swagger-parser';
import { operationKeys, openApiPath, type OpenApiDocument } from '@school/openapi';
import { ROUTE_TABLE } from '../../services/gateway/src/routes/route-table.js';
import { undocumented } from './support/documented-responses.js';
import { type GeneratedClient, generateClient } from './support/generated-client.js';
import { BOOTSTRAP_ADMIN, signIn } from './support/people.js';
import { type RunningSystem, startSystem } from '@school/system-harness';

/** Contract §2 and issue 14: the gateway's /api/openapi.json describes the whole public API, and only it. */
describe('the published API document', () => {
  let system: RunningSystem;
  let document: OpenApiDocument;

  beforeAll(async () => {
    system = await startSystem();
    const response = await fetch(`${system.gatewayUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as OpenApiDocument;
  }, 120_000);
  afterAll(() => system?.shutdown());

  it('holds every route of the gateway’s table and nothing else, each described by its service', () => {
    const table = ROUTE_TABLE.map((route) => `${route.method} ${openApiPath(route.path)}`).sort();
    expect(operationKeys(document).sort()).toEqual(table);
    const undescribed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation['x-description-unavailable'])
        .map(([method]) => `${method} ${path}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('marks exactly the table’s jwt routes as needing a bearer token', () => {
    for (const route of ROUTE_TABLE) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      expect({ route: `${route.method} ${route.path}`, security: operation?.security }).toEqual({
        route: `${route.method} ${route.path}`,
        security: route.auth === 'jwt' ? [{ bearerAuth: [] }] : [],
      });
    }
  });

  it('names the login surface of every surface-bound route: the authentication prefixes and the upload routes', () => {
    const bound = ROUTE_TABLE.filter((route) => /^(\/api)?\/(auth|mobile\/auth|upload|mobile\/uploads)(\/|$)/.test(route.path));
    expect(bound.length).toBeGreaterThan(0);
    for (const route of bound) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      const expected = /^(\/api)?\/(mobile\/auth|mobile\/uploads)/.test(route.path) ? 'mobile' : 'admin';
      expect({ route: route.path, surface: operation?.['x-token-surface'] }).toEqual({ route: route.path, surface: expected });
    }
  });

  it('declares a path parameter for each {name} of a path, and no other', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      for (const operation of Object.values(item)) {
        const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name).sort();
        expect({ path, declared }).toEqual({ path, declared: named });
      }
    }
  });

  it('describes what the system answers: statuses and bodies of real calls match the documented schemas', async () => {
    const admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    const province = '/api/lookups/provinces/0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    // The wildcard key as OpenAPI clients send a path parameter: its slashes percent-encoded.
    const encodedKey = encodeURIComponent('public/avatar/example.webp');
    const calls: { method: 'get' | 'post' | 'patch'; path: string; url?: string; body?: unknown; token?: boolean; status: number }[] = [
      { method: 'post', path: '/api/auth/login/email', body: { email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password }, status: 200 },
      { method: 'post', path: '/api/auth/login/email', body: { email: BOOTSTRAP_ADMIN.email, password: 'not-the-password' }, status: 401 },
      { method: 'get', path: '/api/auth/me', token: true, status: 200 },
      { method: 'get', path: '/api/auth/me', status: 401 },
      { method: 'get', path: '/api/auth/permissions', token: true, status: 200 },
      { method: 'get', path: '/api/auth/sessions', token: true, status: 200 },
      { method: 'get', path: '/api/users/{publicId}/sessions', url: '/api/users/0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b/sessions', token: true, status: 404 },
      { method: 'get', path: '/api/users', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/provinces', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/districts', url: '/api/lookups/districts?includeInactive=true', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/municipalities', url: '/api/lookups/municipalities?size=5', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/municipalities', url: '/api/lookups/municipalities?size=101', token: true, status: 400 },
      { method: 'patch', path: '/api/lookups/provinces/{publicId}', url: province, body: { isActive: true }, token: true, status: 404 },
      { method: 'get', path: '/api/academic-sessions', token: true, status: 200 },
      { method: 'get', path: '/api/school-profile', token: true, status: 200 },
      { method: 'get', path: '/api/upload/signed-url/{key}', url: `/api/upload/signed-url/${encodedKey}`, token: true, status: 200 },
      { method: 'get', path: '/upload/signed-url/{key}', url: `/upload/signed-url/${encodedKey}?expiresIn=59`, token: true, status: 400 },
      { method: 'post', path: '/api/mobile/feedback/public', body: { name: 'A Guest', email: 'not-an-email', category: 'bug_report', subject: 's', message: 'm' }, status: 400 },
      { method: 'get', path: '/.well-known/jwks.json', status: 200 },
    ];
    const problems: string[] = [];
    for (const call of calls) {
      const headers: Record<string, string> = { ...(call.body !== undefined && { 'content-type': 'application/json' }), ...(call.token && { authorization: `Bearer ${admin.accessToken}` }) };
      const response = await fetch(`${system.gatewayUrl}${call.url ?? call.path}`, {
        method: call.method.toUpperCase(),
        headers,
        ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
      });
      const body: unknown = await response.json();
      if (response.status !== call.status) problems.push(`${call.method} ${call.url ?? call.path}: ${response.status} ${JSON.stringify(body)}, expected ${call.status}`);
      problems.push(...undocumented(document, call.method, call.path, response.status, body));
    }
    expect(problems).toEqual([]);
  });

  it('passes the OpenAPI validator of @apidevtools/swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  describe('a client generated from it with openapi-typescript and openapi-fetch', () => {
    let client: GeneratedClient;

    beforeAll(async () => {
      client = await generateClient(`${system.gatewayUrl}/api/openapi.json`);
    }, 180_000);
    afterAll(() => client?.remove());

    it('typechecks, logs in, lists the provinces and gets the documented error envelope', async () => {
      const result = (await client.run({ BASE_URL: system.gatewayUrl, ADMIN_EMAIL: BOOTSTRAP_ADMIN.email, ADMIN_PASSWORD: BOOTSTRAP_ADMIN.password })) as {
        provinces: string[];
        anonymous: { status: number; body: unknown };
        wrongPassword: { status: number; errorCode: string };
      };
      expect(result.provinces).toHaveLength(7);
      expect(result.anonymous).toEqual({
        status: 401,
        body: { message: expect.any(String), data: null, errorCode: 'AUTH_UNAUTHENTICATED' },
      });
      expect(result.wrongPassword).toEqual({ status: 401, errorCode: 'AUTH_INVALID_CREDENTIALS' });
      const documented = document.paths['/api/lookups/provinces']?.get?.['x-error-codes'];
      expect(documented?.['AUTH_UNAUTHENTICATED']).toBe(401);
    }, 60_000);
  });
});
