import type { FastifyRequest } from 'fastify';
import { AppError, MAX_URL_LENGTH, validationFailed } from '@school/http';

export { MAX_URL_LENGTH };

/** Checks of the request line and headers, made before a route's own answer (404 included). */
export function checkRequestHead(request: FastifyRequest): void {
  if ((request.raw.url?.length ?? 0) > MAX_URL_LENGTH) throw new AppError('URI_TOO_LONG');
  // Node answers a missing Host with an empty 400 of its own; the gateway answers it in the envelope.
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    throw validationFailed([{ field: 'host', message: 'Host header is required' }]);
  }
}
