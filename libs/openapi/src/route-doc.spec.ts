import { queryBoolean } from '@school/http';
import { z } from 'zod';
import { serviceDocument } from './document.js';
import { successEnvelope } from './envelopes.js';
import { operationOf } from './route-doc.js';

const body = z.strictObject({ name: z.string().min(1).max(64), isActive: z.boolean().default(true) });
const query = z.strictObject({ includeInactive: queryBoolean.default(false), size: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(100)),
  search: z.string().max(10).optional(),
});

describe('operationOf', () => {
  const operation = operationOf({
    method: 'PATCH',
    path: '/things/{publicId}',
    tag: 'things',
    summary: 'Update a thing',
    params: z.object({ publicId: z.uuid() }),
    query,
    body: { json: body },
    response: { status: 200, description: 'Updated', schema: successEnvelope(z.object({ id: z.number() })) },
    errors: ['GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_IN_USE', 'PROVINCE_NOT_FOUND'],
    permissions: ['Geography_UPDATE'],
  });

  it('describes the body as the validating schema accepts it: bounds, defaults, no undeclared field', () => {
    expect(operation.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, isActive: { type: 'boolean', default: true } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('lists path and query parameters, a query number or boolean by its parsed bounds and default', () => {
    expect(operation.parameters).toEqual([
      { name: 'publicId', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
      { name: 'includeInactive', in: 'query', required: false, schema: { type: 'boolean', default: false } },
      { name: 'size', in: 'query', required: true, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 }) },
      { name: 'search', in: 'query', required: false, schema: { type: 'string', maxLength: 10 } },
    ]);
  });

  it('groups error codes by status, adding validation and permission failures', () => {
    expect(operation['x-error-codes']).toEqual({
      VALIDATION_FAILED: 400,
      PERMISSION_INSUFFICIENT: 403,
      PROVINCE_NOT_FOUND: 404,
      GEOGRAPHY_NAME_TAKEN: 409,
      GEOGRAPHY_IN_USE: 409,
    });
    const conflict = operation.responses['409']?.content?.['application/json'];
    expect(conflict?.schema).toMatchObject({ properties: { errorCode: { enum: ['GEOGRAPHY_IN_USE', 'GEOGRAPHY_NAME_TAKEN'] } } });
    expect(Object.keys(conflict?.examples ?? {})).toEqual(['GEOGRAPHY_IN_USE', 'GEOGRAPHY_NAME_TAKEN']);
    expect(operation.responses['400']?.content?.['application/json']?.schema).toMatchObject({ properties: { errors: { type: 'array' } } });
    expect(operation['x-permissions']).toEqual(['Geography_UPDATE']);
  });

  it('uses the route status for a validation failure where the contract departs from 400', () => {
    const feedback = operationOf({
      method: 'POST',
      path: '/f',
      tag: 'f',
      summary: 'f',
      body: { json: body },
      response: { status: 201, description: 'ok' },
      validationStatus: 422,
    });
    expect(feedback['x-error-codes']).toEqual({ VALIDATION_FAILED: 422 });
    expect(Object.keys(feedback.responses).sort()).toEqual(['201', '422']);
  });
});

describe('serviceDocument', () => {
  it('refuses a route documented twice', () => {
    const route = { method: 'GET', path: '/x', tag: 'x', summary: 'x', response: { status: 200, description: 'ok' } } as const;
    expect(() => serviceDocument('svc', [route, route])).toThrow('GET /x is documented twice');
  });
});
