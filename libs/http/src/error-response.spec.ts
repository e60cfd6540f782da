import { AppError } from './app-error.js';
import { ERROR_CATALOGUE } from '@school/contracts';
import { toErrorResponse, UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-response.js';

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

  it('gives every 503 a Retry-After, whatever answered it; a thrower’s own value wins', () => {
    const fallback = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
    const sources: [string, unknown][] = [
      ['a 503 thrown bare (Redis, JWKS, revocations, stream slots, the upstream)', new AppError('SERVICE_UNAVAILABLE')],
      ['a framework 503 (closing)', { statusCode: 503, message: 'Service Unavailable' }],
      ['a dependency unreachable', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
      ['a saturated pool', Object.assign(new Error('Transaction API error'), { code: 'P2028' })],
    ];
    for (const [source, error] of sources) {
      const response = toErrorResponse(error);
      expect({ source, status: response.status, headers: response.headers }).toEqual({ source, status: 503, headers: fallback });
    }
    expect(toErrorResponse(new AppError('SERVICE_UNAVAILABLE', undefined, { headers: { 'retry-after': '1' } })).headers).toEqual({ 'retry-after': '1' });
    expect(toErrorResponse(new AppError('NOT_FOUND')).headers).toEqual({});
  });
});
