import { z } from 'zod';
import { validationFailed } from './app-error.js';
import { MAX_FIELD_ERRORS, type FieldError } from './envelope.js';
import { MULTI_LINE_TEXT, pathsHoldingNul, SINGLE_LINE_TEXT } from './text-rules.js';

export interface ValidateOptions {
  /** Status for a failure; 400 everywhere except where the contract says otherwise. */
  status?: number;
}

export const NUL_MESSAGE = 'must not contain NUL characters';
export const SINGLE_LINE_MESSAGE = 'must not contain control characters, line breaks or bidirectional overrides';
export const MULTI_LINE_MESSAGE = 'must not contain control characters other than line breaks and tabs, or bidirectional overrides';

/**
 * Parses input with a zod schema; a failure is a VALIDATION_FAILED AppError listing each field
 * (at most MAX_FIELD_ERRORS of them). Before the schema, every string anywhere in the input,
 * object keys included, is checked for NUL (contract §3), so no schema can forget it: a NUL never
 * reaches a service or Postgres (which refuses it with a 500-worthy 22021).
 * Commands consumed from the broker go through the same function as HTTP bodies.
 */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown, options: ValidateOptions = {}): z.output<Schema> {
  const nul = pathsHoldingNul(input, MAX_FIELD_ERRORS);
  if (nul.length > 0)
    throw validationFailed(
      nul.map((path) => ({ field: path || 'body', message: NUL_MESSAGE })),
      options.status,
    );
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(fieldErrors(result.error), options.status);
}

/** The issues of a zod error as envelope entries, the first MAX_FIELD_ERRORS only. */
export function fieldErrors(error: z.ZodError, limit = MAX_FIELD_ERRORS): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    if (errors.length >= limit) break;
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, limit - errors.length)) {
        errors.push({ field: prefix ? `${prefix}.${key}` : key, message: 'Unknown field' });
      }
    } else {
      errors.push({ field: prefix || 'body', message: issue.message });
    }
  }
  return errors;
}

/** Query-string booleans of contract §5: true/1/false/0, anything else is refused. */
export const queryBoolean = z
  .enum(['true', '1', 'false', '0'], { message: 'must be true, 1, false or 0' })
  .transform((value) => value === 'true' || value === '1')
  // Declares the result, so a generated description (libs/openapi) knows the parameter is a boolean.
  .pipe(z.boolean());

/** A trimmed string with length bounds counted after trimming. */
export function trimmedString(min: number, max: number) {
  const bounded = z
    .string()
    .trim()
    .min(min, min === 1 ? 'must not be blank' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`);
  // Bounds apply after trimming, which a description of the input (libs/openapi) cannot see: say that blank is refused.
  return min > 0 ? bounded.meta({ not: { pattern: '^\\s*$' } }) : bounded;
}

/**
 * A single-line field (names, subjects, device fields, search, tokens; contract §3): trimmed,
 * bounded, and free of control characters, line breaks and bidirectional overrides.
 */
export function singleLine(min: number, max: number) {
  return trimmedString(min, max).regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE);
}

/** Multi-line text (feedback `message`, address `street`): as singleLine, but line breaks and tabs are allowed. */
export function multiLineText(min: number, max: number) {
  return trimmedString(min, max).regex(MULTI_LINE_TEXT, MULTI_LINE_MESSAGE);
}

/** An untrimmed single-line string (codes, link and refresh tokens, emails before their own checks). */
export const singleLineRaw = z.string().regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE);
