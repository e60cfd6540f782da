import type { z } from 'zod';
import { addErrors, type RouteError } from './error-responses.js';
import type { HttpMethod, JsonSchema, MediaType, Operation, Parameter } from './openapi-types.js';
import { jsonSchema } from './schema.js';

/** A multipart upload: one file in `field`, or 1 to `maxFiles` files. */
export interface MultipartBody {
  field: string;
  maxFiles: number;
  maxFileBytes?: number;
}

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON body, converted like the request DTOs. */
  schema?: z.ZodType;
  /** A body that is not JSON (a file, an event stream): its media type and schema. */
  raw?: { contentType: string; schema: JsonSchema };
  example?: unknown;
}

/**
 * One route as its service serves it: the same zod schemas that validate the request describe it,
 * so the document cannot drift from validation. `path` is in OpenAPI syntax (`{publicId}`).
 */
export interface RouteDoc {
  method: Uppercase<HttpMethod>;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { json: z.ZodType; example?: unknown } | { multipart: MultipartBody };
  response: RouteResponse;
  /** The route's own error codes; VALIDATION_FAILED is added for any route with params, a query or a body. */
  errors?: readonly RouteError[];
  /** Status of a validation failure where the contract departs from 400 (the authenticated feedback route: 422). */
  validationStatus?: number;
  permissions?: readonly string[];
}

/**
 * A query default is a value after the transforms (`false`), which JSON Schema's input view leaves
 * out; in a query string it is sent as its string.
 */
function stringDefault(field: z.ZodType | undefined): string | undefined {
  const def = field?._zod.def;
  if (def?.type !== 'default') return undefined;
  const value: unknown = (def as unknown as { defaultValue: unknown }).defaultValue;
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : undefined;
}

function parameters(schema: z.ZodObject, location: 'path' | 'query'): Parameter[] {
  const converted = jsonSchema(schema, 'input');
  const properties = (converted['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((converted['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    const queryDefault = location === 'query' ? stringDefault(schema.shape[name]) : undefined;
    if (queryDefault !== undefined) propertySchema['default'] = queryDefault;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' && { description }),
      schema: propertySchema,
    };
  });
}

function multipartSchema({ field, maxFiles, maxFileBytes }: MultipartBody): MediaType {
  const file: JsonSchema = {
    type: 'string',
    format: 'binary',
    contentMediaType: 'application/octet-stream',
    ...(maxFileBytes && { description: `at most ${maxFileBytes} bytes` }),
  };
  const property = maxFiles === 1 ? file : { type: 'array', items: file, minItems: 1, maxItems: maxFiles };
  return { schema: { type: 'object', properties: { [field]: property }, required: [field] } };
}

function requestBody(body: NonNullable<RouteDoc['body']>): Operation['requestBody'] {
  if ('multipart' in body) return { required: true, content: { 'multipart/form-data': multipartSchema(body.multipart) } };
  const media: MediaType = { schema: jsonSchema(body.json, 'input') };
  if (body.example !== undefined) media.example = body.example;
  return { required: true, content: { 'application/json': media } };
}

function successContent(response: RouteResponse): Record<string, MediaType> | undefined {
  if (response.raw) return { [response.raw.contentType]: { schema: response.raw.schema } };
  if (!response.schema) return undefined;
  const media: MediaType = { schema: jsonSchema(response.schema, 'output') };
  if (response.example !== undefined) media.example = response.example;
  return { 'application/json': media };
}

/** The OpenAPI operation of a route: parameters, body, success response and one response per error status. */
export function operationOf(doc: RouteDoc): Operation {
  const parameterList = [...(doc.params ? parameters(doc.params, 'path') : []), ...(doc.query ? parameters(doc.query, 'query') : [])];
  const content = successContent(doc.response);
  const operation: Operation = {
    summary: doc.summary,
    tags: [doc.tag],
    ...(doc.description && { description: doc.description }),
    ...(parameterList.length > 0 && { parameters: parameterList }),
    ...(doc.body && { requestBody: requestBody(doc.body) }),
    responses: { [String(doc.response.status)]: { description: doc.response.description, ...(content && { content }) } },
    ...(doc.permissions && doc.permissions.length > 0 && { 'x-permissions': [...doc.permissions] }),
    'x-error-codes': {},
  };
  const validates = doc.params || doc.query || doc.body;
  const validation: RouteError[] = validates ? [doc.validationStatus ? { code: 'VALIDATION_FAILED', status: doc.validationStatus } : 'VALIDATION_FAILED'] : [];
  const permission: RouteError[] = doc.permissions?.length ? ['PERMISSION_INSUFFICIENT'] : [];
  return addErrors(operation, [...validation, ...permission, ...(doc.errors ?? [])]);
}
