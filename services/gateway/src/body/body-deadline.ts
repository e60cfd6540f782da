import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@school/http';

/**
 * A preParsing hook for JSON routes: a body not received whole `timeoutMs` after its headers fails
 * with 408 REQUEST_TIMEOUT (contract §3), answered in the envelope on a closing connection. A body
 * already complete when the hook runs (nearly all of them) costs nothing more. Uploads are bounded
 * by the server's request timeout instead (UPLOAD_BODY_TIMEOUT_MS) and by the spool's idle cut.
 */
export function bodyDeadlineHook(timeoutMs: number) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable> => {
    if (request.raw.complete) return payload;
    const deadline = new PassThrough();
    const timer = setTimeout(() => deadline.destroy(new AppError('REQUEST_TIMEOUT')), timeoutMs);
    const stop = () => clearTimeout(timer);
    deadline.once('end', stop);
    deadline.once('close', stop);
    reply.raw.once('close', stop);
    // The body parser listens for errors once it reads; until then (or if it never does) nobody must crash.
    deadline.on('error', () => {});
    // pipe() does not forward errors: a client abort must end the parse too.
    payload.once('error', (error) => deadline.destroy(error));
    return payload.pipe(deadline);
  };
}
