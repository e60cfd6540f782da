import type { FastifyInstance } from 'fastify';
import { redactUrl } from './redact-url.js';

export interface AccessLogOptions {
  /** Share of 2xx and 3xx responses given a line (0-1; ACCESS_LOG_SAMPLE_RATE). Every 4xx and 5xx gets one. */
  successSampleRate?: number;
  /** Requests never logged (health probes). */
  skip?: (url: string) => boolean;
}

/**
 * One line per response, written when it is sent (Fastify's own request logging writes two and must
 * be disabled): method, url (credentials in its query redacted), status and time, on the request's
 * logger (its request id and trace ids).
 */
export function registerAccessLog(app: FastifyInstance, { successSampleRate = 1, skip }: AccessLogOptions = {}): void {
  app.addHook('onResponse', (request, reply, done) => {
    const statusCode = reply.statusCode;
    const sampledOut = statusCode < 400 && (successSampleRate <= 0 || (successSampleRate < 1 && Math.random() >= successSampleRate));
    if (!sampledOut && !skip?.(request.url)) {
      // Flat fields: nested objects would each be walked by the redaction paths.
      request.log.info({ method: request.method, url: redactUrl(request.url), statusCode, responseTime: reply.elapsedTime }, 'request completed');
    }
    done();
  });
}
