import type { ErrorCode } from './error-codes.js';

/** Response bodies of contract §3. */
export interface SuccessEnvelope<T> {
  message: string;
  data: T;
  errorCode: null;
}

export interface PageInfo {
  count: number;
  currentPage: number;
  totalPage: number;
}

export type PaginatedEnvelope<T> = SuccessEnvelope<T[]> & PageInfo;

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorEnvelope {
  message: string;
  data: null;
  errorCode: ErrorCode;
  errors?: FieldError[];
}

export function success<T>(message: string, data: T): SuccessEnvelope<T> {
  return { message, data, errorCode: null };
}

export function paginated<T>(message: string, data: T[], page: PageInfo): PaginatedEnvelope<T> {
  return { message, data, errorCode: null, ...page };
}
