import { operationKeys, openApiPath, type OpenApiDocument } from '@school/openapi';
import { ROUTE_TABLE } from '../routes/route-table.js';
import { mergeDocument, operationId } from './merge-document.js';

const part = (paths: OpenApiDocument['paths']): OpenApiDocument => ({ openapi: '3.1.0', info: { title: 'part', version: '1' }, paths });

describe('mergeDocument', () => {
  it('gives every route of the table an operation id of its own', () => {
    const ids = ROUTE_TABLE.map((route) => operationId(route.method, openApiPath(route.path)));
    expect(new Set(ids).size).toBe(ROUTE_TABLE.length);
    expect(operationId('PATCH', '/api/users/{publicId}')).toBe('patchApiUsersByPublicId');
    expect(operationId('GET', '/.well-known/jwks.json')).toBe('getWellKnownJwksJson');
  });

  it('keeps only the table’s operations, whatever else a service documents', () => {
    const merged = mergeDocument(ROUTE_TABLE, {
      identity: part({ '/api/internal-only': { get: { summary: 'not routed', responses: {}, 'x-error-codes': {} } } }),
    });
    expect(operationKeys(merged).sort()).toEqual(ROUTE_TABLE.map((route) => `${route.method} ${openApiPath(route.path)}`).sort());
  });

  it('describes a route whose service never answered by its path parameters and the gateway’s errors', () => {
    const merged = mergeDocument(ROUTE_TABLE, {});
    const file = merged.paths['/upload/file/{key}']?.get;
    expect(file?.['x-description-unavailable']).toBe(true);
    expect(file?.parameters).toEqual([{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(file?.['x-error-codes']).toEqual({ AUTH_UNAUTHENTICATED: 401, SERVICE_UNAVAILABLE: 503 });
    expect(merged.paths['/api/files/signed/{key}']?.get?.security).toEqual([]);
  });

  it('merges the gateway’s codes into a status the service already documents', () => {
    const setPassword = {
      summary: 'Set password',
      responses: { '200': { description: 'ok' } },
      'x-error-codes': { AUTH_INVALID_CREDENTIALS: 401 },
    };
    const merged = mergeDocument(ROUTE_TABLE, { identity: part({ '/api/auth/password/set': { post: setPassword } }) });
    const operation = merged.paths['/api/auth/password/set']?.post;
    expect(operation?.['x-error-codes']).toMatchObject({ AUTH_INVALID_CREDENTIALS: 401, AUTH_UNAUTHENTICATED: 401, RATE_LIMITED: 429 });
    expect(operation?.responses['401']?.content?.['application/json']?.schema).toMatchObject({
      properties: { errorCode: { enum: ['AUTH_INVALID_CREDENTIALS', 'AUTH_UNAUTHENTICATED'] } },
    });
  });
});
