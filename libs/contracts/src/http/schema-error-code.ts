import type { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from './error-codes.js';

/**
 * A schema's refusal answered with a code of the catalogue instead of VALIDATION_FAILED, where the
 * contract gives a rule of the body a code of its own (the reset branch codes of contract §4): an
 * issue `validate` (`@school/http`) throws as that code, with the catalogue's status and message.
 */
export function refuseWithCode(ctx: z.RefinementCtx, code: ErrorCode): void {
  ctx.addIssue({ code: 'custom', message: ERROR_CATALOGUE[code].message, params: { errorCode: code } });
}

/** The catalogue code a schema issue carries (refuseWithCode), or undefined for a field's VALIDATION_FAILED issue. */
export function errorCodeOfIssue(issue: z.core.$ZodIssue): ErrorCode | undefined {
  if (issue.code !== 'custom') return undefined;
  const code: unknown = issue.params?.['errorCode'];
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code) ? (code as ErrorCode) : undefined;
}
