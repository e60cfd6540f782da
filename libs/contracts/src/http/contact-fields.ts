import { z } from 'zod';
import { SINGLE_LINE_TEXT } from './text-rules.js';
import { SINGLE_LINE_MESSAGE } from './text-fields.js';

export const EMAIL_MAX_LENGTH = 255;

/**
 * An email address as the services store and compare it: trimmed and lower-cased, so a unique index
 * on lower(email) and plain equality lookups agree.
 */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE)
  .pipe(z.email('must be an email address'))
  // A description of the input (libs/openapi) sees only the string before the pipe.
  .meta({ format: 'email' });

/** E.164: a plus sign, a country code not starting with 0, at most 15 digits in all. */
export const e164Phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number such as +9779812345678');

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
