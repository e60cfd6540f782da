import { z } from 'zod';
import { MULTI_LINE_TEXT, SINGLE_LINE_TEXT } from './text-rules.js';

export const NUL_MESSAGE = 'must not contain NUL characters';
export const SINGLE_LINE_MESSAGE = 'must not contain control characters, line breaks or bidirectional overrides';
export const MULTI_LINE_MESSAGE = 'must not contain control characters other than line breaks and tabs, or bidirectional overrides';

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
