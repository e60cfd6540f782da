import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { uploadStreamLimit } from './body-limits.js';

/** How long an upload refused before its body was read (401, 403, 429...) may take to send the rest of it. */
export const REFUSED_UPLOAD_DRAIN_MS = 5_000;

/** Answers sent before the rest of the body is read: too large (413) or stalled (408). */
const NOT_DRAINED: ReadonlySet<number> = new Set([408, 413]);

/** After such an answer, how long and how much more of the body is read and discarded before the connection closes. */
export const LINGERING_CLOSE = { ms: 5_000, maxBytes: 64 * 1024 * 1024 };

/**
 * Clients such as undici write the whole body before they read an answer; closing on unread bytes
 * resets the connection and throws the answer away. So an upload answered before its body was read
 * is read and discarded first, up to its route's cap and within REFUSED_UPLOAD_DRAIN_MS; a larger
 * or slower body (or one already over the cap: 413, or stalled: 408) gets the answer at once on a
 * closing connection, which lingers (see lingerBeforeClosing).
 */
export function registerRefusedUploadDrain(app: FastifyInstance, options: { adminUploadMaxFileBytes: number }): void {
  app.addHook('onRoute', (route) => {
    const rule = route.config?.route?.body;
    if (rule?.kind !== 'upload') return;
    const limit = uploadStreamLimit(rule, options.adminUploadMaxFileBytes);
    const drain = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.raw.complete) return payload;
      if (NOT_DRAINED.has(reply.statusCode)) lingerBeforeClosing(request.raw);
      else if (declaredLength(request.raw) <= limit) await discardBody(request.raw, limit, REFUSED_UPLOAD_DRAIN_MS);
      return payload;
    };
    route.onSend = [...toArray(route.onSend), drain];
  });
}

/**
 * Node's server closes a connection as soon as a closing answer is written. With the client's bytes
 * still unread, the kernel then resets the connection, and a client still writing loses the answer
 * it had not read yet (seen on a loaded machine). So, as nginx's lingering close does, the answer
 * is followed by a FIN and the rest of the body is read and discarded until the client stops
 * (it reads the answer and closes) or LINGERING_CLOSE runs out; only then is the socket closed.
 */
function lingerBeforeClosing(request: IncomingMessage): void {
  const socket = request.socket;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    void discardBody(request, LINGERING_CLOSE.maxBytes, LINGERING_CLOSE.ms).then(() => socket.destroy());
  };
}

/** Reads `body` to its end without keeping it; true when it ended within `maxBytes` and `deadlineMs`. */
export function discardBody(body: IncomingMessage, maxBytes: number, deadlineMs: number): Promise<boolean> {
  if (body.complete) return Promise.resolve(true);
  if (body.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      body.off('data', count);
      body.off('end', onEnd);
      body.off('error', onStop);
      body.off('close', onStop);
      if (!ended) body.pause();
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onStop = () => finish(body.complete);
    const timer = setTimeout(() => finish(false), deadlineMs);
    // A pipe into a stalled upstream would hold the bytes in memory; only this reader remains.
    body.unpipe();
    body.on('data', count);
    body.once('end', onEnd);
    body.once('error', onStop);
    body.once('close', onStop);
    body.resume();
  });
}

function declaredLength(raw: IncomingMessage): number {
  const header = raw.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
