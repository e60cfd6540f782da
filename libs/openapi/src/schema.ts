import { z } from 'zod';
import type { JsonSchema } from './openapi-types.js';

/**
 * The JSON Schema of a zod schema, as OpenAPI 3.1 embeds it. `input` describes what a request may
 * send (before transforms and defaults: a query boolean is the strings it accepts); `output` what a
 * response carries. Checks zod cannot express (refinements) are left to the route's description.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    reused: 'inline',
    override: ({ jsonSchema: converted }) => withIntegerFormat(converted as JsonSchema),
  }) as JsonSchema;
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/** OpenAPI's integer formats: `int32` where the bounds fit in 32 bits, `int64` otherwise (epoch milliseconds, sizes). */
function withIntegerFormat(schema: JsonSchema): void {
  if (schema['type'] !== 'integer' || schema['format'] !== undefined) return;
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  const fits = minimum !== undefined && maximum !== undefined && minimum >= INT32.min && maximum <= INT32.max;
  schema['format'] = fits ? 'int32' : 'int64';
}
