import { AppError } from './app-error.js';
import { ERROR_CATALOGUE } from '@school/contracts';
import { toErrorResponse } from './error-response.js';

describe('toErrorResponse', () => {
  it('maps a domain error to its catalogue status and the envelope', () => {
    const response = toErrorResponse(new AppError('ACADEMIC_SESSION_NAME_TAKEN'));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: ERROR_CATALOGUE.ACADEMIC_SESSION_NAME_TAKEN.message, data: null, errorCode: 'ACADEMIC_SESSION_NAME_TAKEN' });
    expect(response.unexpected).toBe(false);
  });

  it('keeps a status override, field errors and headers', () => {
    const response = toErrorResponse(new AppError('VALIDATION_FAILED', undefined, { status: 422, errors: [{ field: 'category', message: 'Invalid option' }] }));
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ field: 'category', message: 'Invalid option' }]);
    expect(toErrorResponse(new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': '30' } })).headers).toEqual({ 'retry-after': '30' });
  });

  it('maps framework failures: malformed JSON 400, body too large 413, unknown route 404', () => {
    const malformed = Object.assign(new SyntaxError('Unexpected end of JSON input'), { statusCode: 400 });
    expect(toErrorResponse(malformed)).toMatchObject({ status: 400, body: { errorCode: 'VALIDATION_FAILED', errors: [{ field: 'body', message: 'Malformed JSON body' }] } });
    const poisoned = Object.assign(new SyntaxError('Object contains forbidden prototype property'), { statusCode: 400 });
    expect(toErrorResponse(poisoned).body.errors).toEqual([{ field: '__proto__', message: 'Unknown field' }]);
    expect(toErrorResponse({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).toMatchObject({ status: 413, body: { errorCode: 'PAYLOAD_TOO_LARGE' } });
    expect(toErrorResponse({ statusCode: 404 })).toMatchObject({ status: 404, body: { errorCode: 'NOT_FOUND' } });
    expect(toErrorResponse({ statusCode: 405 })).toMatchObject({ status: 404, body: { errorCode: 'NOT_FOUND' } });
  });

  it('hides everything about an unexpected error', () => {
    const response = toErrorResponse(new Error('duplicate key value violates unique constraint "users_pkey"'));
    expect(response).toEqual({
      status: 500,
      body: { message: 'Internal server error', data: null, errorCode: 'INTERNAL_ERROR' },
      headers: {},
      unexpected: true,
    });
  });
});
