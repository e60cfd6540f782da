import { describe, expect, it } from '@jest/globals';
import type { Operation } from './openapi.js';
import { judge } from './oracle.js';
import type { WireResponse } from './send.js';

const envelopeRoute: Operation = { id: 'GET /api/x', method: 'GET', path: '/api/x', pathParams: [], queryParams: [], authenticated: true, successIsEnvelope: true, streams: false };
const fileRoute: Operation = { ...envelopeRoute, id: 'GET /api/upload/file/{key}', successIsEnvelope: false };
const INTERNAL = ['127.0.0.1:3001'];

function answer(status: number, body: unknown, headers: Record<string, string> = {}): WireResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8', ...headers }, body: Buffer.from(text) };
}

const problems = (operation: Operation, response: WireResponse) => judge(operation, response, INTERNAL).map((finding) => finding.problem);

describe('judging an answer', () => {
  it('accepts the envelope of a success and of an error', () => {
    expect(problems(envelopeRoute, answer(200, { message: 'Provinces', data: [], errorCode: null }))).toEqual([]);
    expect(problems(envelopeRoute, answer(404, { message: 'Not found', data: null, errorCode: 'NOT_FOUND' }))).toEqual([]);
    expect(problems(envelopeRoute, answer(400, { message: 'Invalid', data: null, errorCode: 'VALIDATION_FAILED', errors: [] }))).toEqual([]);
  });

  it('refuses any 5xx, even in the envelope', () => {
    expect(problems(envelopeRoute, answer(503, { message: 'Down', data: null, errorCode: 'SERVICE_UNAVAILABLE' }))).toEqual(['status 503']);
  });

  it('refuses an error that is not the envelope', () => {
    expect(problems(fileRoute, answer(404, 'Not Found'))).toEqual(['not JSON (content-type text/plain)']);
    expect(problems(envelopeRoute, answer(400, { statusCode: 400, error: 'Bad Request' }))).toEqual(['envelope without a string message']);
    expect(problems(envelopeRoute, answer(400, { message: 'Invalid', data: null, errorCode: 'VALIDATION_FAILED' }))).toEqual(['VALIDATION_FAILED without errors[]']);
    expect(problems(envelopeRoute, answer(429, { message: 'Slow down', data: null, errorCode: 'RATE_LIMITED' }))).toEqual(['429 without Retry-After']);
    expect(problems(envelopeRoute, answer(200, { message: 'ok', data: null, errorCode: 'X' }))).toEqual(['success with a non-null errorCode']);
  });

  it('lets a file or page route answer its own bytes', () => {
    expect(problems(fileRoute, { status: 200, headers: { 'content-type': 'image/webp' }, body: Buffer.from([0, 1, 2, 3]) })).toEqual([]);
  });

  it('finds stack traces, SQL, Prisma messages and internal addresses', () => {
    const leak = (message: string) => problems(envelopeRoute, answer(400, { message, data: null, errorCode: 'X' }));
    expect(leak('boom\n    at Object.handler (/app/services/identity/dist/main.js:10:5)')).toContain('stack trace in the answer');
    expect(leak('duplicate key value violates unique constraint "users_email_key"')).toContain('SQL error in the answer');
    expect(leak('SELECT "id" FROM "identity"."users" WHERE 1')).toContain('SQL in the answer');
    expect(leak('Invalid `prisma.user.findUnique()` invocation')).toContain('Prisma message in the answer');
    expect(leak('upstream http://127.0.0.1:3001 failed')).toContain('internal address 127.0.0.1:3001 in the answer');
  });

  it('counts a request without an answer as a failure', () => {
    expect(problems(envelopeRoute, { status: 0, headers: {}, body: Buffer.alloc(0), failure: 'no answer within 15000 ms' })).toEqual(['no answer within 15000 ms']);
  });
});
