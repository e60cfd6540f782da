import type { ErrorCode } from '@school/contracts';
import { printable } from '@school/contracts';

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

/** Contract §3: `errors[]` lists at most this many entries. */
export const MAX_FIELD_ERRORS = 20;

/** Longest `field` an error names; a longer one (an attacker's key) is cut, never echoed whole. */
export const MAX_FIELD_NAME_LENGTH = 100;

/**
 * The `errors[]` an envelope may carry: at most MAX_FIELD_ERRORS entries, each field name short
 * and printable (a key sent with control characters is shown with U+FFFD in their place).
 */
export function capFieldErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.slice(0, MAX_FIELD_ERRORS).map(({ field, message }) => {
    const cut = field.length > MAX_FIELD_NAME_LENGTH ? `${field.slice(0, MAX_FIELD_NAME_LENGTH)}…` : field;
    return { field: printable(cut), message };
  });
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
