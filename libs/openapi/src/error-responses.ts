import type { RouteError } from '@school/contracts';
import { ERROR_CATALOGUE, type ErrorCode, MAX_FIELD_ERRORS } from '@school/http';
import type { JsonSchema, Operation, Response } from './openapi-types.js';

export function errorStatus(error: RouteError): number {
  return typeof error === 'string' ? ERROR_CATALOGUE[error].status : error.status;
}

function errorCodeOf(error: RouteError): ErrorCode {
  return typeof error === 'string' ? error : error.code;
}

const fieldErrors: JsonSchema = {
  type: 'array',
  maxItems: MAX_FIELD_ERRORS,
  items: {
    type: 'object',
    properties: { field: { type: 'string' }, message: { type: 'string' } },
    required: ['field', 'message'],
    additionalProperties: false,
  },
};

/** Seconds: at most the longest throttle window (an hour, contract §9). */
const RETRY_AFTER: JsonSchema = { type: 'integer', format: 'int32', minimum: 0, maximum: 3600 };

/** Contract §3 error body, `errorCode` narrowed to the codes a status of a route can carry. */
function errorEnvelopeSchema(codes: readonly string[]): JsonSchema {
  const withFieldErrors = codes.includes('VALIDATION_FAILED');
  return {
    type: 'object',
    properties: {
      message: { type: 'string' },
      data: { type: 'null' },
      errorCode: { type: 'string', enum: [...codes] },
      ...(withFieldErrors && { errors: fieldErrors }),
    },
    required: ['message', 'data', 'errorCode'],
    additionalProperties: false,
  };
}

function errorResponse(codes: readonly ErrorCode[]): Response {
  const examples = Object.fromEntries(
    codes.map((code) => {
      const value: Record<string, unknown> = { message: ERROR_CATALOGUE[code].message, data: null, errorCode: code };
      if (code === 'VALIDATION_FAILED') value['errors'] = [{ field: 'name', message: 'must not be blank' }];
      return [code, { summary: code, value }];
    }),
  );
  const response: Response = {
    description: codes.join(', '),
    content: { 'application/json': { schema: errorEnvelopeSchema(codes), examples } },
  };
  if (codes.includes('RATE_LIMITED') || codes.includes('SERVICE_UNAVAILABLE')) {
    response.headers = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: RETRY_AFTER } };
  }
  return response;
}

function codesAt(codes: Record<string, number>, status: number): ErrorCode[] {
  return Object.entries(codes)
    .filter(([, codeStatus]) => codeStatus === status)
    .map(([code]) => code as ErrorCode);
}

/** The codes an error response of this module lists (its `errorCode` enum); none for any other response. */
function codesOf(response: Response | undefined): ErrorCode[] {
  const schema = response?.content?.['application/json']?.schema as { properties?: { errorCode?: { enum?: unknown } } } | undefined;
  const codes = schema?.properties?.errorCode?.enum;
  return Array.isArray(codes) ? (codes as ErrorCode[]) : [];
}

/**
 * Adds error codes to an operation: its `x-error-codes` map and one response per status whose
 * body lists exactly the codes of that status. Used by each service for its own codes and by the
 * gateway for the ones it answers itself. A code the operation already answers at another status
 * keeps that status in `x-error-codes` (VALIDATION_FAILED 422 on authenticated feedback) and is
 * also listed in the response of the new one (its malformed requests are 400).
 */
export function addErrors(operation: Operation, errors: readonly RouteError[]): Operation {
  const codes: Record<string, number> = { ...operation['x-error-codes'] };
  const responses = { ...operation.responses };
  const added = new Map<number, Set<ErrorCode>>();
  for (const error of errors) {
    const status = errorStatus(error);
    codes[errorCodeOf(error)] ??= status;
    const atStatus = added.get(status) ?? new Set([...codesAt(codes, status), ...codesOf(responses[String(status)])]);
    added.set(status, atStatus.add(errorCodeOf(error)));
  }
  for (const [status, atStatus] of added) responses[String(status)] = errorResponse([...atStatus].sort());
  return { ...operation, responses, 'x-error-codes': codes };
}
