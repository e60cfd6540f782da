import fc from 'fast-check';
import type { JsonSchema, SchemaResolver } from './openapi.js';

/** Longest string a "valid" value gets when the schema allows more: boundaries are a mutation of their own. */
const VALID_STRING_CAP = 40;
const MAX_DEPTH = 6;
const WORD_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/** The types a schema allows, `nullable` (3.0) and type arrays (3.1) included. */
export function typesOf(schema: JsonSchema): string[] {
  const declared = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const types = declared.length > 0 ? [...declared] : schema.properties ? ['object'] : schema.items ? ['array'] : [];
  if (schema.nullable && !types.includes('null')) types.push('null');
  return types;
}

/** Values a schema accepts, biased towards ones a service would also accept (plain words, strong passwords). */
export function validValue(schema: JsonSchema, resolver: SchemaResolver, name = '', depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolver.resolve(schema);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if (resolved.const !== undefined) return fc.constant(resolved.const);
  if (resolved.enum && resolved.enum.length > 0) return fc.constantFrom(...resolved.enum);
  if (resolved.allOf && resolved.allOf.length > 0) {
    return fc
      .tuple(...resolved.allOf.map((part) => validValue(part, resolver, name, depth + 1)))
      .map((parts) => (parts.every((part) => part !== null && typeof part === 'object' && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0]));
  }
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants && variants.length > 0) return fc.oneof(...variants.map((variant) => validValue(variant, resolver, name, depth + 1)));
  const types = typesOf(resolved);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => valueOfType(type, resolved, resolver, name, depth)));
}

function valueOfType(type: string, schema: JsonSchema, resolver: SchemaResolver, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringValue(schema, name);
    case 'integer':
      return fc.integer({ min: lowerBound(schema, 1) ?? -1_000, max: upperBound(schema, 1) ?? 1_000_000 });
    case 'number':
      return fc.double({ min: lowerBound(schema, 0) ?? -1e6, max: upperBound(schema, 0) ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(schema.items ?? {}, resolver, name, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, resolver, key, depth + 1)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function lowerBound(schema: JsonSchema, step: number): number | undefined {
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + step;
  if (schema.minimum === undefined) return undefined;
  return schema.exclusiveMinimum === true ? schema.minimum + step : schema.minimum;
}

function upperBound(schema: JsonSchema, step: number): number | undefined {
  if (typeof schema.exclusiveMaximum === 'number') return schema.exclusiveMaximum - step;
  if (schema.maximum === undefined) return undefined;
  return schema.exclusiveMaximum === true ? schema.maximum - step : schema.maximum;
}

function stringValue(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const format = schema.format ?? formatByName(name);
  switch (format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return word(1, 12).map((local) => `${local.toLowerCase()}@example.com`);
    case 'date':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2040-12-31') }).map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2040-12-31') }).map((date) => date.toISOString());
    case 'uri':
      return fc.webUrl();
    case 'binary':
      return fc.string();
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? VALID_STRING_CAP, VALID_STRING_CAP));
  const pattern = schema.pattern === undefined ? undefined : safeRegExp(schema.pattern);
  // A pattern that plain words satisfy (say, "no control characters") is met by plain words; others are generated from the pattern.
  if (pattern && !pattern.test('Abc1')) {
    return fc.stringMatching(pattern).filter((value) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity));
  }
  // Twelve random characters or more: a password the strength estimator of contract §9 accepts too.
  if (/password/i.test(name)) return word(12, 28).map((rest) => `Aa1!${rest}`.slice(0, Math.max(8, maxLength)));
  if (/phone/i.test(name)) return fc.integer({ min: 1_000_000, max: 99_999_999 }).map((digits) => `+97798${digits}`.slice(0, 14));
  return word(Math.max(minLength, 1), Math.max(maxLength, 1));
}

/** Formats a schema may leave unsaid but its field name gives away. */
function formatByName(name: string): string | undefined {
  if (/email/i.test(name)) return 'email';
  if (/date$/i.test(name)) return 'date';
  return undefined;
}

function word(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.stringOf(fc.constantFrom(...WORD_CHARACTERS), { minLength, maxLength });
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}
