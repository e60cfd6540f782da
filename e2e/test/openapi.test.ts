import SwaggerParser from '@apidevtools/swagger-parser';
import { operationKeys, openApiPath, type OpenApiDocument } from '@school/openapi';
import { ROUTE_TABLE } from '../../services/gateway/src/routes/route-table.js';
import { type GeneratedClient, generateClient } from './support/generated-client.js';
import { BOOTSTRAP_ADMIN } from './support/people.js';
import { type RunningSystem, startSystem } from './support/system.js';

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
