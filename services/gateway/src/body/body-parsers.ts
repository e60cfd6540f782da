import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '@school/http';
import { ByteCap, uploadTooLarge } from './byte-cap.js';
import { JSON_BODY_LIMIT, uploadStreamLimit } from './body-limits.js';
import { registerRefusedUploadDrain } from './refused-upload-drain.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received; forwarded as is, so services judge it byte for byte. */
    jsonBytes: Buffer | undefined;
  }
}

/**
 * The gateway reads two kinds of body. JSON (every route): parsed here so malformed or oversized
 * bodies are answered without an upstream round trip and the login throttle can read `email`.
 * Multipart (upload routes only): never buffered, streamed upstream through a byte cap.
 * Any other content type is refused.
 */
export function registerBodyParsers(app: FastifyInstance, options: { adminUploadMaxFileBytes: number }): void {
  app.decorateRequest('jsonBytes', undefined);
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

  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const rule = request.routeOptions.config.route?.body;
    if (rule?.kind !== 'upload') {
      done(unsupportedContentType(), undefined);
      return;
    }
    const limit = uploadStreamLimit(rule, options.adminUploadMaxFileBytes);
    if (declaredLength(request) > limit) {
      done(uploadTooLarge(), undefined);
      return;
    }
    const capped = new ByteCap(limit);
    // pipe() does not forward errors: a client abort must end the upstream request too.
    payload.once('error', (error) => capped.destroy(error));
    done(null, payload.pipe(capped));
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
