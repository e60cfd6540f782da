import { ERROR_CATALOGUE, type ErrorCode } from '@school/contracts';
import { capFieldErrors, type FieldError } from './envelope.js';

export interface AppErrorOptions {
  /** Overrides the catalogue status where the contract says so (422 on authenticated feedback). */
  status?: number;
  errors?: FieldError[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/** A domain failure with a code of the catalogue; mapped to the envelope in one place (toErrorResponse). */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.errors = options.errors && capFieldErrors(options.errors);
    this.headers = options.headers ?? {};
  }
}

export function validationFailed(errors: FieldError[], status?: number): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { errors, ...(status ? { status } : {}) });
}

/** 429 RATE_LIMITED telling the client when to come back (whole seconds, at least 1). */
export function rateLimited(retryAfterMs: number): AppError {
  return new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1_000))) } });
}
