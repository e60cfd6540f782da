/**
 * Every error code the product answers with (spec §7, contract §3), its HTTP status and the
 * message used when the thrower gives none. The one place these names are spelled.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, message: 'Validation failed' },
  NOT_FOUND: { status: 404, message: 'Route not found' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  RATE_LIMITED: { status: 429, message: 'Too many requests, please try again later' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  URI_TOO_LONG: { status: 414, message: 'The request path is too long' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },

  AUTH_UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  PERMISSION_INSUFFICIENT: { status: 403, message: 'You do not have permission to perform this action' },
  AUTH_INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  AUTH_ACCOUNT_BANNED: { status: 403, message: 'This account has been banned' },
  AUTH_CURRENT_PASSWORD_REQUIRED: { status: 400, message: 'Current password is required' },
  AUTH_REFRESH_TOKEN_INVALID: { status: 401, message: 'Refresh token is invalid or expired' },
  AUTH_PASSWORD_RESET_INPUT_REQUIRED: { status: 400, message: 'Either token or otp is required' },
  AUTH_OTP_REQUIRED: { status: 400, message: 'OTP is required' },
  AUTH_OTP_TARGET_REQUIRED: { status: 400, message: 'Email or phone is required with otp' },
  AUTH_VERIFICATION_CODE_INVALID: { status: 400, message: 'Verification code is invalid or expired' },
  AUTH_MFA_ALREADY_ENABLED: { status: 409, message: 'Two-step sign-in is already on' },
  /** 400 on the enrolment and management routes; the login step answers it 401 (contract §12). */
  AUTH_MFA_CODE_INVALID: { status: 400, message: 'The code is invalid' },
  AUTH_MFA_TOKEN_INVALID: { status: 401, message: 'The sign-in token is invalid or expired; log in again' },
  AUTH_MFA_NOT_ENABLED: { status: 404, message: 'Two-step sign-in is not on for this account' },

  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  USER_EMAIL_TAKEN: { status: 409, message: 'Email is already in use' },
  USER_PHONE_TAKEN: { status: 409, message: 'Phone number is already in use' },
  USER_SELF_ACTION: { status: 409, message: 'You cannot ban or delete your own account' },
  USER_LAST_ADMIN: { status: 409, message: 'This change would leave no active administrator' },

  ACADEMIC_SESSION_NOT_FOUND: { status: 404, message: 'Academic session not found' },
  ACADEMIC_SESSION_NAME_TAKEN: { status: 409, message: 'Academic session name already exists' },
  ACADEMIC_SESSION_DATES_INVALID: { status: 409, message: 'endDate must be after startDate' },
  ACADEMIC_SESSION_IS_CURRENT: { status: 409, message: 'The current academic session cannot be deleted' },
  ACADEMIC_SESSION_CURRENT_REQUIRED: { status: 409, message: 'At least one academic session must stay current' },
  ACADEMIC_SESSION_CURRENT_CONFLICT: { status: 409, message: 'Another session became current at the same time; please retry' },

  PROVINCE_NOT_FOUND: { status: 404, message: 'Province not found' },
  DISTRICT_NOT_FOUND: { status: 404, message: 'District not found' },
  MUNICIPALITY_NOT_FOUND: { status: 404, message: 'Municipality not found' },
  GEOGRAPHY_NAME_TAKEN: { status: 409, message: 'Name already exists in this scope' },
  GEOGRAPHY_RENAME_REFERENCED: { status: 409, message: 'This row is referenced and cannot be renamed or moved; retire it instead' },
  GEOGRAPHY_IN_USE: { status: 409, message: 'This row is referenced and cannot be deleted' },

  UPLOAD_FILE_REQUIRED: { status: 400, message: 'A file is required' },
  UPLOAD_TYPE_INVALID: { status: 400, message: 'Invalid upload type' },
  UPLOAD_CONTENT_REJECTED: { status: 400, message: 'File type is not allowed for this upload type' },
  UPLOAD_TOO_LARGE: { status: 413, message: 'File is too large' },
  UPLOAD_QUOTA_EXCEEDED: { status: 413, message: 'Your storage quota is used up' },
  UPLOAD_FORBIDDEN: { status: 403, message: 'You do not have access to this file' },
  STORAGE_UNAVAILABLE: { status: 502, message: 'Storage rejected the request' },
  FILE_NOT_FOUND: { status: 404, message: 'File not found' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested range is not satisfiable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ErrorCode = Object.fromEntries(Object.keys(ERROR_CATALOGUE).map((code) => [code, code])) as {
  readonly [Code in ErrorCode]: Code;
};

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}
