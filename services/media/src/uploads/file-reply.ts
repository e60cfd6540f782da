import type { FastifyReply } from 'fastify';
import type { ByteRange, StoredObject } from '../storage/storage.js';

/** Types a browser may show in place; everything else is offered as a download. */
const INLINE = /^(?:image\/(?:jpeg|png|webp|gif)|video\/(?:mp4|webm|quicktime))$/;

/**
 * Spec §4.4 and §8: the stored bytes with their stored type, cacheable privately for an hour,
 * never sniffed, named by the key's random file name (a safe Content-Disposition), ranges honoured.
 */
export function sendFile(reply: FastifyReply, key: string, file: StoredObject, range: ByteRange | undefined): FastifyReply {
  const name = key.slice(key.lastIndexOf('/') + 1);
  reply
    .header('content-type', file.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `${INLINE.test(file.contentType) ? 'inline' : 'attachment'}; filename="${name}"`)
    .header('cache-control', 'private, max-age=3600')
    .header('accept-ranges', 'bytes');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  return reply.send(file.stream);
}
