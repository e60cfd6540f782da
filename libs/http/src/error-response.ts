import { AppError } from './app-error.js';
import { isDependencyUnavailable } from './dependency-failure.js';
import { ERROR_CATALOGUE, type ErrorCode } from '@school/contracts';
import type { ErrorEnvelope } from './envelope.js';

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
  /** True when the failure is ours (5xx not chosen on purpose): log it with its stack. */
  unexpected: boolean;
}

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
}

/** Fastify's own failures (body parsing, limits, routing) and what they mean in the contract. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'VALIDATION_FAILED',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_NOT_FOUND: 'NOT_FOUND',
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
  FST_ERR_BAD_URL: 'VALIDATION_FAILED',
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'AUTH_UNAUTHENTICATED',
  403: 'PERMISSION_INSUFFICIENT',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'VALIDATION_FAILED',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * A dependency that dropped usually answers again within seconds (a restart, a failover): what every
 * 503 tells the client to wait when its thrower says nothing more precise.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every 503 says when to come back (contract §3); a thrower's own `Retry-After` wins. */
function withRetryAfter(status: number, headers: Record<string, string>): Record<string, string> {
  if (status !== ERROR_CATALOGUE.SERVICE_UNAVAILABLE.status || headers['retry-after'] !== undefined) return headers;
  return { ...headers, 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
}

/**
 * The single mapping from anything thrown to the envelope of contract §3. A body never carries a
 * stack, SQL or a framework message for an unexpected failure.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof AppError) {
    const body: ErrorEnvelope = { message: error.message, data: null, errorCode: error.code };
    if (error.errors) body.errors = error.errors;
    return { status: error.status, body, headers: withRetryAfter(error.status, error.headers), unexpected: false };
  }
  const framework = (typeof error === 'object' && error !== null ? error : {}) as FrameworkError;
  const byCode = typeof framework.code === 'string' ? FRAMEWORK_CODES[framework.code] : undefined;
  const status = Number(framework.statusCode ?? framework.status);
  const code = byCode ?? (Number.isInteger(status) ? STATUS_CODES[status] : undefined);
  if (code) {
    const body: ErrorEnvelope = { message: ERROR_CATALOGUE[code].message, data: null, errorCode: code };
    if (code === 'VALIDATION_FAILED') body.errors = [bodyProblem(error)];
    return { status: ERROR_CATALOGUE[code].status, body, headers: withRetryAfter(ERROR_CATALOGUE[code].status, {}), unexpected: false };
  }
  if (isDependencyUnavailable(error)) {
    const unavailable = ERROR_CATALOGUE.SERVICE_UNAVAILABLE;
    return {
      status: unavailable.status,
      body: { message: unavailable.message, data: null, errorCode: 'SERVICE_UNAVAILABLE' },
      headers: withRetryAfter(unavailable.status, {}),
      unexpected: true,
    };
  }
  const internal = ERROR_CATALOGUE.INTERNAL_ERROR;
  return {
    status: internal.status,
    body: { message: internal.message, data: null, errorCode: 'INTERNAL_ERROR' },
    headers: {},
    unexpected: true,
  };
}

/** What was wrong with a body the framework refused before any handler saw it. */
function bodyProblem(error: unknown): { field: string; message: string } {
  const text = error instanceof Error ? error.message : '';
  if (/forbidden prototype property/i.test(text)) return { field: '__proto__', message: 'Unknown field' };
  if (/forbidden constructor property/i.test(text)) return { field: 'constructor', message: 'Unknown field' };
  if (error instanceof SyntaxError || /json/i.test(text)) return { field: 'body', message: 'Malformed JSON body' };
  if (/content.type/i.test(text)) return { field: 'body', message: 'Unsupported content type' };
  if ((error as FrameworkError).code === 'FST_ERR_BAD_URL') return { field: 'path', message: 'Malformed percent-encoding' };
  return { field: 'body', message: 'Invalid request body' };
}
