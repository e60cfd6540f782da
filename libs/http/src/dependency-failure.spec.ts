import { isDependencyUnavailable } from './dependency-failure.js';
import { toErrorResponse } from './error-response.js';

/** The shapes measured here from Prisma 7 with @prisma/adapter-pg, pg and Node sockets. */
function prismaError(code: string, kind: string): Error {
  return Object.assign(new Error(`Invalid \`prisma.user.findFirst()\` invocation:\n\nCan't reach database server at 10.0.0.5:5432`), {
    code,
    meta: { modelName: 'User', driverAdapterError: { name: 'DriverAdapterError', cause: { kind, host: '10.0.0.5', port: 5432 } } },
  });
}

describe('isDependencyUnavailable', () => {
  it.each([
    ['Prisma P1001 (model query)', prismaError('P1001', 'DatabaseNotReachable')],
    ['Prisma P2010 carrying an unreachable adapter kind (raw query)', prismaError('P2010', 'DatabaseNotReachable')],
    ['a connection closed mid-query', prismaError('P2010', 'ConnectionClosed')],
    ['pg losing its socket', new Error('Connection terminated unexpectedly')],
    ['a pg client used after its socket failed', new Error('Client has encountered a connection error and is not queryable')],
    ['PostgreSQL shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['too many connections (53300)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a refused socket inside an AggregateError', new AggregateError([Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })])],
    ['a cause chain', new Error('query failed', { cause: new Error('x', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }) })],
    ['ioredis with no connection', new Error('Connection is closed.')],
    [
      'a transaction that waited too long for the pool (P2028)',
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }),
    ],
    ['a pool timeout (P2024)', Object.assign(new Error('Timed out fetching a new connection from the connection pool.'), { code: 'P2024' })],
    ['pg waiting too long for a pooled connection', new Error('timeout exceeded when trying to connect')],
    [
      'another service giving no answer over RabbitMQ (RpcUnavailableError)',
      Object.assign(new Error('reference-data.geography.check: no answer within 3000 ms'), { code: 'RPC_UNAVAILABLE' }),
    ],
  ])('recognises %s', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })],
    ['a syntax error in SQL', Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'ECONNREFUSED'],
  ])('leaves %s alone', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });

  it('stops on a cause cycle', () => {
    const error: Error & { cause?: unknown } = new Error('loop');
    error.cause = error;
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});

describe('toErrorResponse of an unreachable dependency', () => {
  it('is 503 SERVICE_UNAVAILABLE with Retry-After, and names nothing internal', () => {
    const response = toErrorResponse(prismaError('P1001', 'DatabaseNotReachable'));
    expect(response.status).toBe(503);
    expect(response.headers).toEqual({ 'retry-after': '5' });
    expect(response.body).toEqual({ message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' });
    expect(response.unexpected).toBe(true);
  });
});
