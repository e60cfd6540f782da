import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_CATALOGUE, REQUEST_ID_HEADER, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@school/http';
import { lingerBeforeClosing } from './lingering-close.js';

/** On every response the gateway sends, its own and proxied ones (contract §3). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Contract §9: a served file (an HTML or SVG upload, say) runs nothing and reaches nothing. */
export const SERVED_FILE_CSP = "default-src 'none'; sandbox";

/**
 * One synchronous hook sets every header the gateway adds, overriding whatever a service sent:
 * the request id, the security headers, `no-store` on routes that carry tokens or a profile, the
 * served-file CSP on routes answering with a stored file, `Retry-After` on a 503 that has none (a
 * service's own relayed, the readiness report), and
 * `Connection: close` when the request body was not read whole (refused or cut short: the rest of
 * it is not worth reading, and a client trickling it must not keep the connection), with a lingering
 * close so that a client still writing reads the answer before the connection goes.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    for (const name in SECURITY_HEADERS) reply.header(name, SECURITY_HEADERS[name]);
    const route = request.routeOptions.config.route;
    if (route?.noStore) reply.header('cache-control', 'no-store');
    if (route?.servesFiles) reply.header('content-security-policy', SERVED_FILE_CSP);
    if (reply.statusCode === ERROR_CATALOGUE.SERVICE_UNAVAILABLE.status && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    }
    if (!request.raw.complete) closeAfterAnswer(request.raw, reply);
    done(null, payload);
  });
}

/** The answer to a request whose body was not read whole ends its connection, lingering first. */
export function closeAfterAnswer(request: IncomingMessage, reply: FastifyReply): void {
  reply.header('connection', 'close');
  lingerBeforeClosing(request);
}
