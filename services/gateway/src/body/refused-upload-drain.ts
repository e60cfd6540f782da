import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { discardBody } from '../http/lingering-close.js';
import { uploadStreamLimit } from './body-limits.js';

/** How long an upload refused before its body was read (401, 403, 429...) may take to send the rest of it. */
export const REFUSED_UPLOAD_DRAIN_MS = 5_000;

/** Answers whose body is never read: too large (413) or stalled (408). */
const NOT_DRAINED: ReadonlySet<number> = new Set([408, 413]);

/**
 * Clients such as undici write the whole body before they read an answer; closing on unread bytes
 * resets the connection and throws the answer away. So an upload answered before its body was read
 * is read and discarded first, up to its route's cap and within REFUSED_UPLOAD_DRAIN_MS; a larger
 * or slower body (or one already over the cap: 413, or stalled: 408) gets the answer at once on a
 * closing connection, which lingers a little (lingerBeforeClosing, set with the headers).
 */
export function registerRefusedUploadDrain(app: FastifyInstance, options: { adminUploadMaxFileBytes: number }): void {
  app.addHook('onRoute', (route) => {
    const rule = route.config?.route?.body;
    if (rule?.kind !== 'upload') return;
    const limit = uploadStreamLimit(rule, options.adminUploadMaxFileBytes);
    const drain = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!request.raw.complete && !NOT_DRAINED.has(reply.statusCode) && declaredLength(request.raw) <= limit) {
        await discardBody(request.raw, { maxBytes: limit, deadlineMs: REFUSED_UPLOAD_DRAIN_MS });
      }
      return payload;
    };
    route.onSend = [...toArray(route.onSend), drain];
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
