// Transitional: the RouteDoc shape of the services not yet described by a route manifest (@school/contracts).
import type { z } from 'zod';
import type { RouteError } from '@school/contracts';
import { addErrors } from './error-responses.js';
import type { HttpMethod, JsonSchema, MediaType, Operation, Parameter } from './openapi-types.js';
import { jsonSchema } from './schema.js';
import type { ApiTag } from '@school/contracts';

/** A multipart upload: one file in `field`, or 1 to `maxFiles` files. */
export interface MultipartBody {
  field: string;
  maxFiles: number;
  maxFileBytes?: number;
  /** The media types a file part may claim (its `Content-Type`); absent: any. */
  contentTypes?: readonly string[];
}

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON body, converted like the request DTOs. */
  schema?: z.ZodType;
  /** A body that is not JSON (a file, an event stream): each media type it may have, and its schema. */
  raw?: { contentTypes: readonly string[]; schema: JsonSchema };
  example?: unknown;
}

/**
 * One route as its service serves it: the same zod schemas that validate the request describe it,
 * so the document cannot drift from validation. `path` is in OpenAPI syntax (`{publicId}`).
 */
export interface RouteDoc {
  method: Uppercase<HttpMethod>;
  path: string;
  tag: ApiTag;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { json: z.ZodType; example?: unknown } | { multipart: MultipartBody };
  response: RouteResponse;
  /** Other successes (206 for a byte range). */
  alsoAnswers?: readonly RouteResponse[];
  /** The route's own error codes; VALIDATION_FAILED is added for any route with a query or a body. */
  errors?: readonly RouteError[];
  /** Status of a validation failure where the contract departs from 400 (the authenticated feedback route: 422). */
  validationStatus?: number;
  permissions?: readonly string[];
  /** The login surface of the route (contract §4): a JWT route accepts only its tokens, a login issues them; absent: any valid token. */
  tokenSurface?: 'admin' | 'mobile';
}

/** JSON Schema types a query string carries as their usual text form (`20`). */
const SCALAR_TYPES = new Set(['integer', 'number']);

/**
 * A query value is text. Where the validating schema turns it into a number (`^\d+$` piped into
 * bounds), the parameter is described by that result, bounds and default included, as OpenAPI
 * clients serialise it. A boolean accepts both what clients send for `true`/`false` and the
 * text it is parsed from (`1`, `0`): a boolean or one of those strings. Any other field as the text it accepts.
 */
function querySchema(input: JsonSchema, output: JsonSchema | undefined): JsonSchema {
  if (output?.['type'] === 'boolean') {
    const { default: _textDefault, ...text } = input;
    return { anyOf: [{ type: 'boolean' }, text], ...(output['default'] !== undefined && { default: output['default'] }) };
  }
  return output && SCALAR_TYPES.has(output['type'] as string) ? output : input;
}

function parameters(schema: z.ZodObject, location: 'path' | 'query'): Parameter[] {
  const inputs = (jsonSchema(schema, 'input')['properties'] ?? {}) as Record<string, JsonSchema>;
  const outputs = (jsonSchema(schema, 'output')['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((jsonSchema(schema, 'input')['required'] ?? []) as string[]);
  return Object.entries(inputs).map(([name, input]) => {
    const property = location === 'query' ? querySchema(input, outputs[name]) : input;
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' && { description }),
      schema: propertySchema,
    };
  });
}

function multipartSchema({ field, maxFiles, maxFileBytes, contentTypes }: MultipartBody): MediaType {
  const file: JsonSchema = {
    type: 'string',
    format: 'binary',
    ...(maxFileBytes && { description: `at most ${maxFileBytes} bytes` }),
  };
  const property = maxFiles === 1 ? file : { type: 'array', items: file, minItems: 1, maxItems: maxFiles };
  return {
    schema: { type: 'object', properties: { [field]: property }, required: [field] },
    ...(contentTypes?.length && { encoding: { [field]: { contentType: contentTypes.join(', ') } } }),
  };
}

function requestBody(body: NonNullable<RouteDoc['body']>): Operation['requestBody'] {
  if ('multipart' in body) return { required: true, content: { 'multipart/form-data': multipartSchema(body.multipart) } };
  const media: MediaType = { schema: jsonSchema(body.json, 'input') };
  if (body.example !== undefined) media.example = body.example;
  return { required: true, content: { 'application/json': media } };
}

function successContent(response: RouteResponse): Record<string, MediaType> | undefined {
  const { raw } = response;
  if (raw) return Object.fromEntries(raw.contentTypes.map((type) => [type, { schema: raw.schema }]));
  if (!response.schema) return undefined;
  const media: MediaType = { schema: jsonSchema(response.schema, 'output') };
  if (response.example !== undefined) media.example = response.example;
  return { 'application/json': media };
}

/** The OpenAPI operation of a route: parameters, body, success response and one response per error status. */
export function legacyOperationOf(doc: RouteDoc): Operation {
  const parameterList = [...(doc.params ? parameters(doc.params, 'path') : []), ...(doc.query ? parameters(doc.query, 'query') : [])];
  const operation: Operation = {
    summary: doc.summary,
    tags: [doc.tag],
    ...(doc.description && { description: doc.description }),
    ...(parameterList.length > 0 && { parameters: parameterList }),
    ...(doc.body && { requestBody: requestBody(doc.body) }),
    responses: Object.fromEntries(
      [doc.response, ...(doc.alsoAnswers ?? [])].map((response) => {
        const content = successContent(response);
        return [String(response.status), { description: response.description, ...(content && { content }) }];
      }),
    ),
    ...(doc.permissions && doc.permissions.length > 0 && { 'x-permissions': [...doc.permissions] }),
    ...(doc.tokenSurface && { 'x-token-surface': doc.tokenSurface }),
    'x-error-codes': {},
  };
  // A path parameter naming no row is a 404 of the route's own; a route refusing a malformed one says so in `errors`.
  const validates = doc.query || doc.body;
  const validation: RouteError[] = validates ? [doc.validationStatus ? { code: 'VALIDATION_FAILED', status: doc.validationStatus } : 'VALIDATION_FAILED'] : [];
  const permission: RouteError[] = doc.permissions?.length ? ['PERMISSION_INSUFFICIENT'] : [];
  return addErrors(operation, [...validation, ...permission, ...(doc.errors ?? [])]);
}
