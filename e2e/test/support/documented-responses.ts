import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { HttpMethod, OpenApiDocument } from '@school/openapi';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/**
 * Problems of an answer against the document: its status must be one the operation lists, and its
 * JSON body must match that response's schema. An empty list means the answer is as documented.
 */
export function undocumented(document: OpenApiDocument, method: HttpMethod, path: string, status: number, body: unknown): string[] {
  const operation = document.paths[path]?.[method];
  if (!operation) return [`${method.toUpperCase()} ${path} is not in the document`];
  const response = operation.responses[String(status)];
  if (!response) return [`${method.toUpperCase()} ${path} does not document status ${status}`];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [`${method.toUpperCase()} ${path} ${status} documents no JSON body`];
  const check = ajv.compile(schema);
  if (check(body)) return [];
  return (check.errors ?? []).map((error) => `${method.toUpperCase()} ${path} ${status}: ${error.instancePath || 'body'} ${error.message ?? ''}`);
}
