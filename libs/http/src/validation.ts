import { z } from 'zod';
import { validationFailed } from './app-error.js';
import type { FieldError } from './envelope.js';

export interface ValidateOptions {
  /** Status for a failure; 400 everywhere except where the contract says otherwise. */
  status?: number;
}

/**
 * Parses input with a zod schema; a failure is a VALIDATION_FAILED AppError listing each field.
 * Commands consumed from the broker go through the same function as HTTP bodies.
 */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown, options: ValidateOptions = {}): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(fieldErrors(result.error), options.status);
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: prefix ? `${prefix}.${key}` : key, message: 'Unknown field' }));
    }
    return [{ field: prefix || 'body', message: issue.message }];
  });
}

/** Query-string booleans of contract §5: true/1/false/0, anything else is refused. */
export const queryBoolean = z
  .enum(['true', '1', 'false', '0'], { message: 'must be true, 1, false or 0' })
  .transform((value) => value === 'true' || value === '1');

/** A trimmed string with length bounds counted after trimming. */
export function trimmedString(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, min === 1 ? 'must not be blank' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`);
}
