import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '@school/http';
import { JSON_BODY_LIMIT, uploadStreamLimit } from './body-limits.js';
import { registerRefusedUploadDrain } from './refused-upload-drain.js';
import { uploadTooLarge, type SpooledBody, type UploadSpool } from './upload-spool.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received; forwarded as is, so services judge it byte for byte. */
    jsonBytes: Buffer | undefined;
    /** An upload's body, received whole; deleted once the answer is sent (see registerBodyParsers). */
    spooledBody: SpooledBody | undefined;
  }
}

export interface BodyParserOptions {
  adminUploadMaxFileBytes: number;
  uploadSpool: UploadSpool;
  /** UPLOAD_IDLE_TIMEOUT_MS. */
  uploadIdleTimeoutMs: number;
}

/**
 * The gateway reads two kinds of body. JSON (every route): parsed here so malformed or oversized
 * bodies are answered without an upstream round trip and the login throttle can read `email`.
 * Multipart (upload routes only): never held in memory; received whole into the upload spool
 * under the route's byte cap and the idle cut, and only then sent upstream.
 * Any other content type is refused.
 */
export function registerBodyParsers(app: FastifyInstance, options: BodyParserOptions): void {
  app.decorateRequest('jsonBytes', undefined);
  app.decorateRequest('spooledBody', undefined);
  app.removeAllContentTypeParsers();

  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: JSON_BODY_LIMIT }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(null, undefined);
      return;
    }
    try {
      // Plain JSON.parse: a `__proto__` key stays an own property, and the service (not the gateway)
      // decides how an undeclared field is refused (400, or 422 on authenticated feedback).
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      request.jsonBytes = bytes;
      done(null, parsed);
    } catch {
      done(validationFailed([{ field: 'body', message: 'Malformed JSON body' }]), undefined);
    }
  });

  app.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: Readable) => {
    const rule = request.routeOptions.config.route?.body;
    if (rule?.kind !== 'upload') throw unsupportedContentType();
    const limit = uploadStreamLimit(rule, options.adminUploadMaxFileBytes);
    if (declaredLength(request) > limit) throw uploadTooLarge();
    request.spooledBody = await options.uploadSpool.receive(payload, { maxBytes: limit, idleTimeoutMs: options.uploadIdleTimeoutMs });
    return undefined;
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(unsupportedContentType(), undefined));
  registerRefusedUploadDrain(app, options);
}

function declaredLength(request: FastifyRequest): number {
  const header = request.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

function unsupportedContentType(): AppError {
  return validationFailed([{ field: 'body', message: 'Unsupported content type' }]);
}

/** An onRequest hook of upload routes (only: other requests pay nothing for it): the spooled body goes once the answer is sent or cut off. */
export async function discardSpooledBodyOnClose(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.raw.once('close', () => request.spooledBody?.discard());
}
