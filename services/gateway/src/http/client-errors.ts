import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, REQUEST_ID_HEADER, toErrorResponse, validationFailed } from '@school/http';
import { MAX_URL_LENGTH } from './request-limits.js';
import { closeAfterAnswer, SECURITY_HEADERS } from './response-headers.js';

/**
 * Node's `clientError`: the request could not be parsed, its headers were too large, or it was
 * not received in time (HEADERS_TIMEOUT_MS, UPLOAD_BODY_TIMEOUT_MS). No Fastify request exists, so
 * the envelope is written on the socket itself, then the connection is closed.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  // Never write into a response that has started: the client would read a corrupt answer.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, body, headers } = toErrorResponse(clientErrorOf(error));
    const json = JSON.stringify(body);
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(json)}`,
      'connection: close',
      ...Object.entries({ ...SECURITY_HEADERS, ...headers }).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n${json}`);
  }
  socket.destroySoon();
}

function clientErrorOf(error: ConnectionError): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT');
    case 'HPE_HEADER_OVERFLOW':
      // Typed as a serialised buffer by Fastify; Node hands over the chunk the parser failed on.
      return new AppError(requestLineTooLong(error.rawPacket) ? 'URI_TOO_LONG' : 'HEADERS_TOO_LARGE');
    default:
      return validationFailed([{ field: 'request', message: 'Malformed HTTP request' }]);
  }
}

/**
 * Node counts the request line in its header limit: a path long enough to overflow it is still a
 * path over the limit. Seen when the chunk the parser failed on holds the start of the request.
 */
function requestLineTooLong(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet) || !/^[A-Z]{3,7} /.test(packet.subarray(0, 8).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd === -1 ? packet.length : lineEnd) > MAX_URL_LENGTH;
}

/**
 * Fastify's errors raised while routing, before any hook runs (so the headers of
 * registerResponseHeaders are set here): a malformed percent-encoding, an over-long parameter.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const mapped =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('URI_TOO_LONG')
      : error.code === 'FST_ERR_BAD_URL'
        ? validationFailed([{ field: 'path', message: 'Malformed percent-encoding' }])
        : error;
  const { status, body, headers } = toErrorResponse(mapped);
  reply.code(status).headers({ ...SECURITY_HEADERS, ...headers, [REQUEST_ID_HEADER]: request.id });
  if (!request.raw.complete) closeAfterAnswer(request.raw, reply);
  reply.send(body);
}
