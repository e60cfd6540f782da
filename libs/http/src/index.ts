export * from './app-error.js';
export * from './envelope.js';
export * from './error-response.js';
export * from './validation.js';
export * from './list-query.js';
export * from './request-limits.js';
export * from './request-id.js';
export * from './request-abandoned.js';
export * from './email-digest.js';
export * from './dependency-failure.js';
// The HTTP vocabulary declared in the contracts (error codes, text and list rules), for the services' code.
export {
  ERROR_CATALOGUE,
  ErrorCode,
  statusOf,
  SINGLE_LINE_TEXT,
  MULTI_LINE_TEXT,
  NUL,
  printable,
  pathsHoldingNul,
  NUL_MESSAGE,
  SINGLE_LINE_MESSAGE,
  MULTI_LINE_MESSAGE,
  queryBoolean,
  trimmedString,
  singleLine,
  multiLineText,
  singleLineRaw,
  EMAIL_MAX_LENGTH,
  emailAddress,
  e164Phone,
  normalizeEmail,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  UNPAGINATED_CAP,
  listQueryShape,
  MAX_SIGNED_URL_KEYS,
  type SortOrder,
} from '@school/contracts';
