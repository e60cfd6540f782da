import { isJsonBody, rateLimitsOf, type RouteError, type RouteResponse, type RouteSpec, type Surface, type UploadBody } from '@school/contracts';
import type { z } from 'zod';
import { addErrors } from './error-responses.js';
import type { JsonSchema, MediaType, Operation, Parameter } from './openapi-types.js';
import { jsonSchema } from './schema.js';

/** What a service's configuration decides of its document: each surface's file size limit. */
export interface DocumentOptions {
  maxFileBytes?: Readonly<Record<Surface, number>>;
}

/** `{maxFileBytes}` in a route's text: the size limit of its upload surface. */
const MAX_FILE_BYTES = /\{maxFileBytes\}/g;

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

function multipartSchema({ field, maxFiles, contentTypes }: UploadBody['upload'], maxFileBytes: number | undefined): MediaType {
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

function requestBody(body: NonNullable<RouteSpec['body']>, options: DocumentOptions): Operation['requestBody'] {
  if (!isJsonBody(body)) return { required: true, content: { 'multipart/form-data': multipartSchema(body.upload, options.maxFileBytes?.[body.upload.surface]) } };
  const media: MediaType = { schema: jsonSchema(body.json, 'input') };
  if (body.example !== undefined) media.example = body.example;
  return { required: true, content: { 'application/json': media } };
}

/** The success body's media types: JSON from `schema`, and those of `raw` (a route may answer either, by `Accept`). */
function successContent(response: RouteResponse): Record<string, MediaType> | undefined {
  const { raw } = response;
  const content: Record<string, MediaType> = {};
  if (response.schema) {
    const media: MediaType = { schema: jsonSchema(response.schema, 'output') };
    if (response.example !== undefined) media.example = response.example;
    content['application/json'] = media;
  }
  if (raw) for (const type of raw.contentTypes) content[type] = { schema: raw.schema };
  return Object.keys(content).length > 0 ? content : undefined;
}

function text(route: RouteSpec, value: string, options: DocumentOptions): string {
  const surface = route.body && !isJsonBody(route.body) ? route.body.upload.surface : undefined;
  const bytes = surface && options.maxFileBytes?.[surface];
  return bytes ? value.replace(MAX_FILE_BYTES, String(bytes)) : value;
}

/** The OpenAPI operation of a route: parameters, body, success response and one response per error status. */
export function operationOf(route: RouteSpec, options: DocumentOptions = {}): Operation {
  const parameterList = [...(route.params ? parameters(route.params, 'path') : []), ...(route.query ? parameters(route.query, 'query') : [])];
  const operation: Operation = {
    summary: text(route, route.summary, options),
    tags: [route.tag],
    ...(route.description && { description: text(route, route.description, options) }),
    ...(parameterList.length > 0 && { parameters: parameterList }),
    ...(route.body && { requestBody: requestBody(route.body, options) }),
    responses: Object.fromEntries(
      [route.response, ...(route.alsoAnswers ?? [])].map((response) => {
        const content = successContent(response);
        return [String(response.status), { description: response.description, ...(response.headers && { headers: { ...response.headers } }), ...(content && { content }) }];
      }),
    ),
    ...(route.permissions && route.permissions.length > 0 && { 'x-permissions': [...route.permissions] }),
    ...(route.surface && { 'x-token-surface': route.surface.surface }),
    'x-error-codes': {},
  };
  // A path parameter naming no row is a 404 of the route's own; a route refusing a malformed one says so in `errors`.
  const validates = route.query || route.body;
  const validation: RouteError[] = validates ? [route.validationStatus ? { code: 'VALIDATION_FAILED', status: route.validationStatus } : 'VALIDATION_FAILED'] : [];
  const permission: RouteError[] = route.permissions?.length ? ['PERMISSION_INSUFFICIENT'] : [];
  const limited: RouteError[] = rateLimitsOf(route).length > 0 ? ['RATE_LIMITED'] : [];
  return addErrors(operation, [...validation, ...permission, ...limited, ...(route.errors ?? [])]);
}
