import { addErrors, operationKeys, openApiPath, type OpenApiDocument } from '@school/openapi';
import { ROUTE_TABLE } from '../routes/route-table.js';
import { mergeDocument, operationId } from './merge-document.js';

/** What the gateway answers on any route before it (contract §3). */
const REQUEST_ERRORS = { VALIDATION_FAILED: 400, REQUEST_TIMEOUT: 408, URI_TOO_LONG: 414, HEADERS_TOO_LARGE: 431 };

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
    expect(file?.['x-error-codes']).toEqual({ ...REQUEST_ERRORS, AUTH_UNAUTHENTICATED: 401, SERVICE_UNAVAILABLE: 503 });
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

  it('describes every tag, a placeholder’s service name included', () => {
    const merged = mergeDocument(ROUTE_TABLE, {
      feedback: part({ '/api/mobile/feedback/public': { post: { summary: 'Guest feedback', tags: ['feedback'], responses: {}, 'x-error-codes': {} } } }),
    });
    expect(merged.tags).toEqual(
      expect.arrayContaining([
        { name: 'feedback', description: expect.stringContaining('feedback') },
        { name: 'identity', description: 'Routes of the identity service' },
      ]),
    );
    expect(merged.tags?.every((tag) => tag.description)).toBe(true);
  });

  it('names the gateway itself as the server, relative to where the document is read', () => {
    expect(mergeDocument(ROUTE_TABLE, {}).servers).toEqual([{ url: '/', description: expect.any(String), 'x-internal': false }]);
  });

  it('documents on every operation the refusals of a malformed, slow, over-long or over-headed request', () => {
    const merged = mergeDocument(ROUTE_TABLE, {});
    for (const [path, item] of Object.entries(merged.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect({ operation: `${method} ${path}`, codes: operation['x-error-codes'] }).toEqual({
          operation: `${method} ${path}`,
          codes: expect.objectContaining(REQUEST_ERRORS),
        });
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '408', '414', '431']));
      }
    }
  });

  it('keeps a route’s own status for VALIDATION_FAILED and lists the gateway’s 400 beside it', () => {
    const feedback = {
      summary: 'Feedback',
      responses: { '201': { description: 'ok' } },
      'x-error-codes': {},
    };
    const withOwn = addErrors(feedback, [{ code: 'VALIDATION_FAILED', status: 422 }]);
    const merged = mergeDocument(ROUTE_TABLE, { feedback: part({ '/api/mobile/feedback': { post: withOwn } }) });
    const operation = merged.paths['/api/mobile/feedback']?.post;
    expect(operation?.['x-error-codes']['VALIDATION_FAILED']).toBe(422);
    for (const status of ['400', '422']) {
      expect(operation?.responses[status]?.content?.['application/json']?.schema).toMatchObject({ properties: { errorCode: { enum: ['VALIDATION_FAILED'] } } });
    }
  });
});
