import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@school/http';
import type { UploadSlot, UploadsInFlight } from './uploads-in-flight.js';

/** Uploads last seconds, not a window: a short wait is the honest hint. */
const RETRY_AFTER_SECONDS = '5';

/**
 * Runs after authentication: holds one of the caller's upload slots from the request's head to the
 * end of its answer (or of its connection), else 429 RATE_LIMITED with `Retry-After`.
 */
export function uploadsInFlightHook(inFlight: UploadsInFlight) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    let slot: UploadSlot | undefined;
    let ended = false;
    reply.raw.once('close', () => {
      ended = true;
      slot?.release();
    });
    slot = await inFlight.acquire(request.principal?.userId ?? '', request.client.ip);
    if (!slot) throw new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
    // Dropped before this hook could listen ('close' already went by), or while it waited.
    if (ended || reply.raw.destroyed) slot.release();
  };
}
