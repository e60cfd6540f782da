/**
 * Failures of a connection that never opened (refused, unreachable, timed out connecting): the
 * service received nothing, so the request is as new and may go once more, whatever its method.
 * A dead replica behind a balancer that does not retry (a Kubernetes Service) refuses this way.
 */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Failures of an open connection before any answer came: the request may have reached the service
 * and been processed, so only a method whose repeat changes nothing (RFC 9110 §9.2.2) goes again.
 */
const CLOSED_UNANSWERED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A body a second attempt can send again: none, or bytes held in memory (never a stream read once). */
const replayable = (body: unknown) => body === undefined || body === null || typeof body === 'string' || Buffer.isBuffer(body);

export interface FailedAttempt {
  err: (Error & { code?: unknown }) | undefined;
  method: string;
  body: unknown;
  attempt: number;
}

/**
 * Whether a request whose attempt failed before any answer goes once more (on another connection:
 * the failed one is gone). Never a second retry, and never after an answer (a service's own 503 is
 * its answer to relay).
 */
export function retriesOnce({ err, method, body, attempt }: FailedAttempt): boolean {
  if (attempt > 0 || !err || !replayable(body)) return false;
  const code = typeof err.code === 'string' ? err.code : '';
  return NEVER_CONNECTED.has(code) || (CLOSED_UNANSWERED.has(code) && IDEMPOTENT_METHODS.has(method.toUpperCase()));
}
