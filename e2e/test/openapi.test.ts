import SwaggerParser from '@apidevtools/swagger-parser';
import { SERVICE_NAMES } from '@school/config';
import { rateLimitsOf, type RouteManifest, SERVICE_ROUTES } from '@school/contracts';
import { type JsonSchema, type Operation, operationKeys, openApiPath, type OpenApiDocument, type Parameter } from '@school/openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROUTE_TABLE } from '../../services/gateway/src/routes/route-table.js';
import { undocumented } from './support/documented-responses.js';
import { type GeneratedClient, generateClient } from './support/generated-client.js';
import { type Linter, redoclyLint, spectralLint } from './support/openapi-lint.js';
import { BOOTSTRAP_ADMIN, clientAddress, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { SEEDED_PROVINCES } from './support/seed.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** A valid 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** An administrator of the suite's own: the shared system's bootstrap admin is every suite's, and its logins and sessions are capped. */
const ADMIN_PASSWORD = 'Docs!Walnut-Ledger-7';

/**
 * Contract §2 and issue 14: the gateway's /api/openapi.json describes the whole public API, and only
 * it. On the shared system: the calls that change something change only what the suite created.
 */
describe('the published API document', () => {
  let system: SystemView;
  let document: OpenApiDocument;
  let owner: SignedIn;

  beforeAll(async () => {
    system = await sharedSystem();
    const response = await fetch(`${system.gatewayUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as OpenApiDocument;
    const bootstrap = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    owner = await invitedPerson(system, bootstrap.accessToken, 'admin', ADMIN_PASSWORD);
  }, 120_000);

  /** A call from an address of the suite's own (the shared system trusts one proxy): no other suite's throttle windows. */
  const api = (path: string | URL, init: RequestInit = {}) =>
    fetch(new URL(path, system.gatewayUrl), { ...init, headers: { 'x-forwarded-for': clientAddress(), ...(init.headers as Record<string, string>) } });

  const operations = () => Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ key: `${method} ${path}`, operation })));

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
        const declared = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name)
          .sort();
        expect({ path, declared }).toEqual({ path, declared: named });
      }
    }
  });

  it('describes what the system answers: statuses and bodies of real calls match the documented schemas', async () => {
    const province = '/api/lookups/provinces/0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    // The wildcard key as OpenAPI clients send a path parameter: its slashes percent-encoded.
    const encodedKey = encodeURIComponent('public/avatar/example.webp');
    const calls: {
      method: 'get' | 'post' | 'patch';
      path: string;
      url?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      token?: boolean;
      status: number;
    }[] = [
      { method: 'post', path: '/api/auth/login/email', body: { email: owner.email, password: ADMIN_PASSWORD }, status: 200 },
      { method: 'post', path: '/api/auth/login/email', body: { email: owner.email, password: 'not-the-password' }, status: 401 },
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
      // Query booleans as the API parses them: true/1/false/0, nothing else.
      { method: 'get', path: '/api/lookups/provinces', url: '/api/lookups/provinces?includeInactive=1', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/provinces', url: '/api/lookups/provinces?includeInactive=0', token: true, status: 200 },
      { method: 'get', path: '/api/lookups/provinces', url: '/api/lookups/provinces?includeInactive=yes', token: true, status: 400 },
      // The gateway's refusals before any route: malformed, over-long, over-headed.
      // A path id that is no UUID names no record: the route's own 404; a malformed one is the gateway's 400.
      { method: 'get', path: '/api/users/{publicId}', url: '/api/users/not-a-uuid', token: true, status: 404 },
      { method: 'get', path: '/api/users/{publicId}', url: '/api/users/%E0%A4%A', token: true, status: 400 },
      { method: 'post', path: '/api/mobile/feedback', rawBody: '{"subject":', token: true, status: 400 },
      { method: 'patch', path: '/api/lookups/provinces/{publicId}', url: province, rawBody: '{"isActive":', token: true, status: 400 },
      { method: 'get', path: '/api/users/{publicId}', url: `/api/users/${'a'.repeat(3_000)}`, token: true, status: 414 },
      { method: 'get', path: '/api/auth/me', headers: { 'x-padding': 'a'.repeat(20_000) }, token: true, status: 431 },
    ];
    const problems: string[] = [];
    for (const call of calls) {
      const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
      const headers: Record<string, string> = {
        ...call.headers,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(call.token && { authorization: `Bearer ${owner.accessToken}` }),
      };
      const response = await api(call.url ?? call.path, { method: call.method.toUpperCase(), headers, ...(body !== undefined && { body }) });
      const answer: unknown = await response.json();
      if (response.status !== call.status) problems.push(`${call.method} ${call.url ?? call.path}: ${response.status} ${JSON.stringify(answer)}, expected ${call.status}`);
      problems.push(...undocumented(document, call.method, call.path, response.status, answer));
    }
    expect(problems).toEqual([]);
  });

  it('passes the OpenAPI validator of @apidevtools/swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it.each([
    ['Spectral’s OpenAPI and OWASP rules of .spectral.yaml', spectralLint],
    ['Redocly’s recommended rules of redocly.yaml', redoclyLint],
  ])(
    'passes %s with no error',
    async (_name, lint) => {
      const findings = await lint(document);
      expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    },
    120_000,
  );

  it('is linted for real: the same rules find the errors of a damaged copy', async () => {
    const damaged = structuredClone(document);
    const login = damaged.paths['/api/auth/login/email']!.post!;
    damaged.paths['/api/auth/refresh']!.post!.operationId = login.operationId!;
    delete damaged.components!.securitySchemes!['bearerAuth']!['description'];
    const errorsOf = async (lint: Linter) => (await lint(damaged)).filter((finding) => finding.severity === 'error').map((finding) => finding.code);
    expect(await errorsOf(spectralLint)).toEqual(expect.arrayContaining(['operation-operationId-unique', 'owasp:api2:2023-jwt-best-practices']));
    expect(await errorsOf(redoclyLint)).toEqual(expect.arrayContaining(['operation-operationId-unique']));
  }, 120_000);

  it('names its server relative to where it is read: the gateway that serves it', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('documents on every operation the gateway’s 400, 408, 414 and 431, besides the route’s own errors', () => {
    const missing = operations().flatMap(({ key, operation }) => ['400', '408', '414', '431'].filter((status) => !operation.responses[status]).map((status) => `${key} ${status}`));
    expect(missing).toEqual([]);
    const feedback = document.paths['/api/mobile/feedback']?.post;
    expect(feedback?.['x-error-codes']['VALIDATION_FAILED']).toBe(422);
    expect(Object.keys(feedback?.responses ?? {})).toEqual(expect.arrayContaining(['400', '422']));
  });

  it('documents 429 RATE_LIMITED with Retry-After on exactly the routes a limit of their manifest may refuse, in the gateway’s document and each service’s', async () => {
    const documents: Record<string, OpenApiDocument> = { gateway: document };
    for (const name of SERVICE_NAMES) documents[name] = (await (await fetch(`${system.serviceUrl(name)}/openapi.json`)).json()) as OpenApiDocument;
    const documents429 = (operation: Operation | undefined) => {
      const response = operation?.responses['429'];
      const schema = response?.content?.['application/json']?.schema as { properties?: { errorCode?: { enum?: string[] } }; required?: string[] } | undefined;
      return {
        code: operation?.['x-error-codes']['RATE_LIMITED'],
        envelope: schema?.properties?.errorCode?.enum,
        required: schema?.required,
        retryAfter: response?.headers?.['Retry-After'] !== undefined,
      };
    };
    const limited: string[] = [];
    const manifests: Record<string, readonly RouteManifest[]> = SERVICE_ROUTES;
    for (const [service, serviceManifests] of Object.entries(manifests)) {
      for (const spec of serviceManifests.flatMap((manifest) => Object.values(manifest))) {
        const key = `${spec.method} ${openApiPath(spec.path)}`;
        const expected = rateLimitsOf(spec).length > 0;
        if (expected) limited.push(key);
        const paths = [openApiPath(spec.path), ...(spec.alsoWithoutApiPrefix ? [openApiPath(spec.path.slice('/api'.length))] : [])];
        const found = [
          { in: service, operation: documents[service]?.paths[openApiPath(spec.path)]?.[spec.method.toLowerCase() as 'get'] },
          ...paths.map((path) => ({ in: `gateway ${path}`, operation: document.paths[path]?.[spec.method.toLowerCase() as 'get'] })),
        ];
        for (const { in: where, operation } of found) {
          expect({ key, where, exists: operation !== undefined, ...documents429(operation) }).toEqual(
            expected
              ? { key, where, exists: true, code: 429, envelope: ['RATE_LIMITED'], required: ['message', 'data', 'errorCode'], retryAfter: true }
              : { key, where, exists: true, code: undefined, envelope: undefined, required: undefined, retryAfter: false },
          );
        }
      }
    }
    // Issue 31: the three routes whose 429 the document once forgot, and limits that are no gateway throttle.
    expect(limited).toEqual(
      expect.arrayContaining([
        'GET /api/notifications/stream',
        'POST /api/mobile/uploads/signed-urls',
        'POST /api/auth/phone/verify/request',
        'POST /api/upload/multiple',
        'POST /api/mobile/auth/login/email',
      ]),
    );
    expect(limited).not.toContain('GET /api/auth/me');
  });

  it('types the academic session dates of request bodies as format date, and refuses what the API refuses', async () => {
    const bodies = [document.paths['/api/academic-sessions']?.post, document.paths['/api/academic-sessions/{publicId}']?.patch].map(
      (operation) => operation?.requestBody?.content['application/json']?.schema as { properties: Record<string, JsonSchema> },
    );
    for (const body of bodies) {
      expect(body.properties['startDate']).toMatchObject({ type: 'string', format: 'date' });
      expect(body.properties['endDate']).toMatchObject({ type: 'string', format: 'date' });
    }
    // No session is created: academic-sessions.test.ts counts every session of the shared system. A
    // valid body gets past validation to the lookup of a session that does not exist (404).
    const [created, edited] = bodies.map((body) => ajv.compile(body));
    const missing = '/api/academic-sessions/0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    const send = (method: 'post' | 'patch', path: string, session: object) =>
      api(path, { method: method.toUpperCase(), headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.accessToken}` }, body: JSON.stringify(session) });
    for (const [method, path, documentedPath, valid, startDate, status] of [
      ['post', '/api/academic-sessions', '/api/academic-sessions', created!, '2025-02-30', 400],
      ['patch', missing, '/api/academic-sessions/{publicId}', edited!, '2025-02-28', 404],
      ['patch', missing, '/api/academic-sessions/{publicId}', edited!, '2025-02-30', 400],
    ] as const) {
      const session = { name: `Dates ${startDate}`, startDate, endDate: '2026-02-27' };
      const response = await send(method, path, session);
      expect({ method, startDate, status: response.status, documentedValid: valid(session) }).toEqual({ method, startDate, status, documentedValid: status !== 400 });
      expect(undocumented(document, method, documentedPath, response.status, await response.json())).toEqual([]);
    }
  });

  it('types every query boolean so that 1 and 0 are valid, as the API parses them', () => {
    const booleans = operations().flatMap(({ key, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter: Parameter) => parameter.in === 'query' && JSON.stringify(parameter.schema).includes('"boolean"'))
        .map((parameter) => ({ key, parameter })),
    );
    expect(booleans.map(({ parameter }) => parameter.name)).toEqual(expect.arrayContaining(['includeInactive', 'pagination', 'optimize', 'isActive', 'isCurrent']));
    for (const { key, parameter } of booleans) {
      const check = ajv.compile(parameter.schema);
      const accepted = [true, false, 'true', 'false', '1', '0', 'yes', 2].filter((value) => check(value));
      expect({ key, name: parameter.name, accepted }).toEqual({ key, name: parameter.name, accepted: [true, false, 'true', 'false', '1', '0'] });
    }
  });

  it('states that setting a password ends the caller’s other sessions', () => {
    for (const path of ['/api/auth/password/set', '/api/mobile/auth/password/set']) {
      expect(document.paths[path]?.post?.description).toMatch(/ends every other session of the caller/);
    }
  });

  describe('files', () => {
    let admin: SignedIn;
    let stored: { relativePath: string; url: string; mimeType: string };

    beforeAll(async () => {
      admin = owner;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
      const response = await api('/api/upload?uploadType=image', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin.accessToken}` } });
      const answer = (await response.json()) as { data: typeof stored };
      expect(response.status).toBe(200);
      expect(undocumented(document, 'post', '/api/upload', 200, answer)).toEqual([]);
      stored = answer.data;
    });

    it('documents uploads as multipart with the media types a file part may claim', () => {
      const upload = document.paths['/api/mobile/uploads']?.post?.requestBody?.content['multipart/form-data'];
      expect(upload?.encoding?.['file']?.contentType.split(', ')).toEqual(expect.arrayContaining(['image/png', 'image/jpeg', 'application/pdf']));
      expect(upload?.encoding?.['file']?.contentType).not.toContain('video/');
      const batch = document.paths['/api/upload/multiple']?.post?.requestBody?.content['multipart/form-data'];
      expect(batch?.encoding?.['files']?.contentType).toContain('video/mp4');
    });

    it('answers a stored file with a media type its route documents, whichever way the key’s slashes are sent', async () => {
      const served = ['/api/upload/file/{key}', '/api/mobile/uploads/file/{key}', '/api/files/signed/{key}'].map((path) => ({
        path,
        types: Object.keys(document.paths[path]?.get?.responses['200']?.content ?? {}),
      }));
      for (const { types } of served) {
        expect(types).toEqual(expect.arrayContaining(['image/webp', 'image/png', 'application/pdf']));
        expect(types).not.toContain('application/octet-stream');
      }
      expect(stored.relativePath.split('/').length).toBeGreaterThan(2);
      const fetched = [
        { path: '/api/upload/file/{key}', url: `/api/upload/file/${stored.relativePath}`, token: true },
        { path: '/api/upload/file/{key}', url: `/api/upload/file/${encodeURIComponent(stored.relativePath)}`, token: true },
        { path: '/api/files/signed/{key}', url: stored.url, token: false },
      ];
      for (const { path, url, token } of fetched) {
        const response = await api(url, { headers: token ? { authorization: `Bearer ${admin.accessToken}` } : {} });
        await response.arrayBuffer();
        const type = response.headers.get('content-type');
        const documented = Object.keys(document.paths[path]?.get?.responses['200']?.content ?? {});
        expect({ url, status: response.status, type, documented: documented.includes(type ?? '') }).toEqual({ url, status: 200, type: stored.mimeType, documented: true });
      }
    });

    it('describes the key as a path parameter holding slashes', () => {
      for (const path of ['/api/upload/file/{key}', '/api/files/signed/{key}', '/api/upload/signed-url/{key}']) {
        const key = document.paths[path]?.get?.parameters?.find((parameter) => parameter.name === 'key');
        expect(key?.description).toMatch(/contains slashes/);
        expect((key?.schema['examples'] as string[] | undefined)?.every((example) => example.includes('/'))).toBe(true);
      }
    });
  });

  describe('a client generated from it with openapi-typescript and openapi-fetch', () => {
    let client: GeneratedClient;

    beforeAll(async () => {
      client = await generateClient(`${system.gatewayUrl}/api/openapi.json`);
    }, 180_000);
    afterAll(() => client?.remove());

    it('typechecks, logs in, lists the provinces and gets the documented error envelope', async () => {
      const result = (await client.run({ BASE_URL: system.gatewayUrl, ADMIN_EMAIL: owner.email, ADMIN_PASSWORD })) as {
        provinces: string[];
        anonymous: { status: number; body: unknown };
        wrongPassword: { status: number; errorCode: string };
      };
      expect(result.provinces).toEqual(expect.arrayContaining(SEEDED_PROVINCES));
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
