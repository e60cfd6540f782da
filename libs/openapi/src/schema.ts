import { z } from 'zod';
import type { JsonSchema } from './openapi-types.js';

/**
 * The JSON Schema of a zod schema, as OpenAPI 3.1 embeds it. `input` describes what a request may
 * send (before transforms and defaults: a query boolean is the strings it accepts); `output` what a
 * response carries. Checks zod cannot express (refinements) are left to the route's description.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}
