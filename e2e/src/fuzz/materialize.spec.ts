import { describe, expect, it } from '@jest/globals';
import { materialize } from './materialize.js';
import { type OpenApiDocument, operationsOf, SchemaResolver } from './openapi.js';
import type { Plan } from './plans.js';
import { Pools } from './pools.js';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/api/lookups/provinces/{publicId}': {
      patch: {
        parameters: [{ name: 'publicId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateProvince' } } } },
        security: [{ bearer: [] }],
        responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { message: {}, data: {}, errorCode: {} } } } } } },
      },
    },
    '/api/upload/file/{key}': {
      get: { parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { content: { 'application/octet-stream': {} } } } },
    },
    '/api/upload': {
      post: { requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } }, responses: {} },
    },
  },
  components: { schemas: { UpdateProvince: { type: 'object', properties: { name: { type: 'string', maxLength: 120 }, isActive: { type: 'boolean' } } } } },
};
const resolver = new SchemaResolver(document);
const [patchProvince, getFile, upload] = operationsOf(document) as [Plan['operation'], Plan['operation'], Plan['operation']];

function plan(overrides: Partial<Plan>): Plan {
  return {
    operation: patchProvince,
    kind: 'valid',
    principal: 'admin',
    pathValues: {},
    query: {},
    body: { name: 'Koshi' },
    upload: [],
    poolPicks: [0, 0, 0, 0, 0, 0, 0, 0],
    mutation: { kind: 'none' },
    ...overrides,
  };
}

describe('turning a plan into a request', () => {
  it('reads operations, their auth and whether they answer the envelope', () => {
    expect(patchProvince).toMatchObject({ id: 'PATCH /api/lookups/provinces/{publicId}', authenticated: true, successIsEnvelope: true });
    expect(getFile).toMatchObject({ authenticated: false, successIsEnvelope: false });
  });

  it('addresses rows and files seen in earlier answers', () => {
    const pools = new Pools();
    pools.observe({ data: { publicId: '0190f1a2-0000-7000-8000-000000000001', relativePath: 'uploads/image/u-1/a b.png' } });
    expect(materialize(plan({}), resolver, pools, 'Bearer t').target).toBe('/api/lookups/provinces/0190f1a2-0000-7000-8000-000000000001');
    expect(materialize(plan({ operation: getFile, body: undefined }), resolver, pools, undefined).target).toBe('/api/upload/file/uploads/image/u-1/a%20b.png');
  });

  it('never hands out the ids of accounts it must not touch', () => {
    const pools = new Pools(['0190f1a2-0000-7000-8000-000000000001']);
    pools.observe({ publicId: '0190f1a2-0000-7000-8000-000000000001' });
    expect(pools.pick('publicId', 0)).toBeUndefined();
  });

  it('puts a prototype key on the wire as an own field', () => {
    const wire = materialize(plan({ kind: 'invalid', mutation: { kind: 'field-extra', key: '__proto__', value: { isAdmin: true } } }), resolver, new Pools(), undefined);
    expect(wire.body?.toString()).toBe('{"__proto__":{"isAdmin":true},"name":"Koshi"}');
    expect(wire.headers['content-type']).toBe('application/json');
  });

  it('sets a bounded field just past its bound', () => {
    const wire = materialize(plan({ kind: 'boundary', mutation: { kind: 'boundary', pick: 0, side: 'above' } }), resolver, new Pools(), undefined);
    expect((JSON.parse(wire.body!.toString()) as { name: string }).name).toHaveLength(121);
  });

  it('encodes files as multipart under the documented field', () => {
    const wire = materialize(
      plan({ operation: upload, body: undefined, upload: [{ content: 'csv', random: new Uint8Array(), filename: 'a.csv', contentType: 'text/csv' }] }),
      resolver,
      new Pools(),
      undefined,
    );
    expect(wire.headers['content-type']).toMatch(/^multipart\/form-data; boundary=fuzz/);
    expect(wire.body?.toString()).toContain('Content-Disposition: form-data; name="file"; filename="a.csv"');
  });
});

describe('encoding hostile path values', () => {
  it('sends a lone surrogate as invalid UTF-8 instead of failing to encode it', () => {
    const wire = materialize(plan({ kind: 'invalid', mutation: { kind: 'path-value', pick: 0, value: 'a\uD800b' } }), resolver, new Pools(), undefined);
    expect(wire.target).toBe('/api/lookups/provinces/a%ED%A0%80b');
  });
});
