import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Short and log-safe: an incoming id is kept only when it looks like one (a UUID, a trace id, a ULID...). */
const SANE_REQUEST_ID = /^[\w.:+/=-]{1,128}$/;

/** Keeps a sane incoming `X-Request-Id` so one id follows the request across systems; otherwise a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
