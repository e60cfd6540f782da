/**
 * Whether an error means a dependency (PostgreSQL, Redis, RabbitMQ, another service asked over
 * RabbitMQ) cannot be reached right now: the request may succeed later, so it is 503
 * SERVICE_UNAVAILABLE, never a 500. Recognised by shape, through `cause` chains, so no driver
 * (nor `@school/messaging`) is imported here.
 */

/** Prisma's driver-adapter error kinds for a connection that is missing, lost or refused. */
const UNREACHABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError']);
/**
 * Prisma's codes: can't reach, timed out, closed, pool timeout, too many connections, and a
 * transaction that could not start (or finish) in time because the pool was saturated (P2028).
 */
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037']);
/** Codes of our own libraries: another service gave no answer (`RpcUnavailableError` of `@school/messaging`). */
const UNREACHABLE_SERVICE_CODES = new Set(['RPC_UNAVAILABLE']);
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** PostgreSQL: connection exceptions (class 08), shutting down / cannot connect now, too many connections. */
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** Client libraries that say it only in words: pg (its pool's wait included), ioredis, Prisma. */
const UNREACHABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Connection is closed|Can't reach database server|Timed out fetching a new connection|timeout exceeded when trying to connect|Unable to start a transaction in the given time/;

const MAX_DEPTH = 6;

interface ErrorShape {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
}

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const shape = error as ErrorShape;
  if (typeof shape.kind === 'string' && UNREACHABLE_ADAPTER_KINDS.has(shape.kind)) return true;
  if (typeof shape.code === 'string') {
    if (UNREACHABLE_PRISMA_CODES.has(shape.code) || UNREACHABLE_SERVICE_CODES.has(shape.code) || UNREACHABLE_SOCKET_CODES.has(shape.code) || UNREACHABLE_SQLSTATE.test(shape.code))
      return true;
  }
  if (typeof shape.message === 'string' && UNREACHABLE_MESSAGES.test(shape.message)) return true;
  const nested = [shape.cause, shape.meta?.driverAdapterError?.cause, ...(Array.isArray(shape.errors) ? (shape.errors as unknown[]) : [])];
  return nested.some((inner) => isDependencyUnavailable(inner, depth + 1));
}
