import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Short and log-safe: an incoming id is kept only when it looks like one (a UUID, a trace id, a ULID, base64...). */
const SANE_REQUEST_ID = /^[\w.:+/=-]{1,128}$/;

/**
 * The one rule of the gateway and the services: a sane incoming `X-Request-Id` is kept, so one id
 * follows the request across every hop; otherwise a new UUID.
 */
export function requestId(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
