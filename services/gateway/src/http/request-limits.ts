import type { FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '@school/http';

/**
 * The longest request target (path and query string) the gateway reads, in bytes: 414
 * URI_TOO_LONG above it. Every route of the contract fits in a few hundred bytes; 2 KiB is the
 * length every browser and proxy is known to carry.
 */
export const MAX_URL_LENGTH = 2048;

/** Checks of the request line and headers, made before a route's own answer (404 included). */
export function checkRequestHead(request: FastifyRequest): void {
  if ((request.raw.url?.length ?? 0) > MAX_URL_LENGTH) throw new AppError('URI_TOO_LONG');
  // Node answers a missing Host with an empty 400 of its own; the gateway answers it in the envelope.
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    throw validationFailed([{ field: 'host', message: 'Host header is required' }]);
  }
}
