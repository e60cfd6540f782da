import { queryBoolean, singleLine, successEnvelope } from '@school/contracts';
import type { RouteSpec } from '@school/contracts';
import { z } from 'zod';
import { serviceDocument } from './document.js';
import { addErrors } from './error-responses.js';
import { operationOf } from './route-doc.js';

const body = z.strictObject({ name: z.string().min(1).max(64), isActive: z.boolean().default(true) });
const query = z.strictObject({
  includeInactive: queryBoolean.default(false),
  size: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(100)),
  search: z.string().max(10).optional(),
});

describe('operationOf', () => {
  const operation = operationOf({
    method: 'PATCH',
    path: '/things/:publicId',
    auth: 'jwt',
    tag: 'geography',
    summary: 'Update a thing',
    params: z.object({ publicId: z.uuid() }),
    query,
    body: { json: body },
    response: { status: 200, description: 'Updated', schema: successEnvelope(z.object({ id: z.number() })) },
    errors: ['GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_IN_USE', 'PROVINCE_NOT_FOUND'],
    permissions: ['Geography_UPDATE'],
    surface: { surface: 'admin', check: 'token' },
  });

  it('describes the body as the validating schema accepts it: bounds, defaults, no undeclared field', () => {
    expect(operation.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, isActive: { type: 'boolean', default: true } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('lists path and query parameters, a query number by its parsed bounds and default, a boolean as a boolean or its text', () => {
    expect(operation.parameters).toEqual([
      { name: 'publicId', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
      {
        name: 'includeInactive',
        in: 'query',
        required: false,
        schema: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: expect.arrayContaining(['true', '1', 'false', '0']) }], default: false },
      },
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
    expect(operation['x-token-surface']).toBe('admin');
  });

  /** A public POST with a JSON body, whose validation failures the contract answers 422. */
  const feedbackRoute = (errors: RouteSpec['errors'] = []): RouteSpec => ({
    method: 'POST',
    path: '/f',
    auth: 'public',
    tag: 'feedback',
    summary: 'f',
    body: { json: body },
    response: { status: 201, description: 'ok' },
    validationStatus: 422,
    errors,
  });

  it('uses the route status for a validation failure where the contract departs from 400', () => {
    const feedback = operationOf(feedbackRoute());
    expect(feedback['x-error-codes']).toEqual({ VALIDATION_FAILED: 422 });
    expect(Object.keys(feedback.responses).sort()).toEqual(['201', '422']);
  });

  it('lists a code the route answers at a second status in that status’s response, keeping its own in x-error-codes', () => {
    const feedback = operationOf(feedbackRoute(['AUTH_OTP_REQUIRED']));
    const refused = addErrors(feedback, ['VALIDATION_FAILED', 'URI_TOO_LONG']);
    expect(refused['x-error-codes']).toEqual({ VALIDATION_FAILED: 422, AUTH_OTP_REQUIRED: 400, URI_TOO_LONG: 414 });
    const enumAt = (status: string) =>
      (refused.responses[status]?.content?.['application/json']?.schema as { properties: { errorCode: { enum: string[] } } }).properties.errorCode.enum;
    expect(enumAt('400')).toEqual(['AUTH_OTP_REQUIRED', 'VALIDATION_FAILED']);
    expect(enumAt('422')).toEqual(['VALIDATION_FAILED']);
    expect(enumAt('414')).toEqual(['URI_TOO_LONG']);
  });
});

describe('files in and out', () => {
  const upload: RouteSpec = {
    method: 'POST',
    path: '/files',
    auth: 'jwt',
    tag: 'files',
    summary: 'files (at most {maxFileBytes} bytes)',
    body: { upload: { surface: 'mobile', field: 'file', maxFiles: 1, contentTypes: ['image/png', 'application/pdf'] } },
    response: { status: 200, description: 'the file back', raw: { contentTypes: ['image/png', 'application/pdf'], schema: { type: 'string', format: 'binary' } } },
  };
  const files = operationOf(upload, { maxFileBytes: { admin: 10, mobile: 5 } });

  it('names the media types a file part may claim', () => {
    expect(files.requestBody?.content['multipart/form-data']?.encoding).toEqual({ file: { contentType: 'image/png, application/pdf' } });
  });

  it('states the size limit of the upload’s surface, in the schema and where the text names it', () => {
    expect(files.summary).toBe('files (at most 5 bytes)');
    expect(files.requestBody?.content['multipart/form-data']?.schema).toMatchObject({ properties: { file: { description: 'at most 5 bytes' } } });
  });

  it('answers each media type a served file may have', () => {
    expect(Object.keys(files.responses['200']?.content ?? {})).toEqual(['image/png', 'application/pdf']);
  });
});

describe('headers of an answer', () => {
  it('describes the headers a route sets on its success, beside its body', () => {
    const headers = { 'Content-Disposition': { description: 'a download', schema: { type: 'string' } } };
    const download = operationOf({
      method: 'GET',
      path: '/copy',
      auth: 'jwt',
      tag: 'users',
      summary: 'a copy',
      response: { status: 200, description: 'the copy', schema: z.object({ at: z.string() }), headers },
    });
    expect(download.responses['200']?.headers).toEqual(headers);
    expect(download.responses['200']?.content?.['application/json']?.schema).toMatchObject({ properties: { at: { type: 'string' } } });
  });
});

describe('the input of a trimmed field', () => {
  it('says that a blank string is refused, as the bounds count after trimming', () => {
    const schema = operationOf({
      method: 'POST',
      path: '/t',
      auth: 'public',
      tag: 'users',
      summary: 't',
      body: { json: z.strictObject({ name: singleLine(1, 10), note: singleLine(0, 10).optional() }) },
      response: { status: 200, description: 'ok' },
    }).requestBody?.content['application/json']?.schema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties['name']).toMatchObject({ not: { pattern: '^\\s*$' } });
    expect(schema.properties['note']?.['not']).toBeUndefined();
    expect(new RegExp((schema.properties['name']?.['not'] as { pattern: string }).pattern).test(' \t ')).toBe(true);
  });
});

describe('serviceDocument', () => {
  const route: RouteSpec = { method: 'GET', path: '/x/:publicId', auth: 'public', tag: 'keys', summary: 'x', response: { status: 200, description: 'ok' } };

  it('documents each route at its OpenAPI path', () => {
    expect(Object.keys(serviceDocument('svc', [{ x: route }]).paths)).toEqual(['/x/{publicId}']);
  });

  it('refuses a route documented twice', () => {
    expect(() => serviceDocument('svc', [{ x: route }, { y: route }])).toThrow('GET /x/{publicId} is documented twice');
  });
});
