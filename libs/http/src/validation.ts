import { z } from 'zod';
import { AppError, validationFailed } from './app-error.js';
import { MAX_FIELD_ERRORS, type FieldError } from './envelope.js';
import { errorCodeOfIssue, NUL_MESSAGE, pathsHoldingNul } from '@school/contracts';

export interface ValidateOptions {
  /** Status for a failure; 400 everywhere except where the contract says otherwise. */
  status?: number;
}

/**
 * Parses input with a zod schema; a failure is a VALIDATION_FAILED AppError listing each field
 * (at most MAX_FIELD_ERRORS of them). Before the schema, every string anywhere in the input,
 * object keys included, is checked for NUL (contract §3), so no schema can forget it: a NUL never
 * reaches a service or Postgres (which refuses it with a 500-worthy 22021).
 * A schema may answer a rule with a code of the catalogue of its own (refuseWithCode): the first
 * such issue is thrown as that code instead of VALIDATION_FAILED.
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
  const code = result.error.issues.map(errorCodeOfIssue).find((found) => found !== undefined);
  if (code) throw new AppError(code);
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
