import type { FastifyInstance } from 'fastify';
import { AppError, toErrorResponse } from '@school/http';
import { checkRequestHead } from './http/request-limits.js';

/** Every answer the gateway makes itself on failure is the envelope of contract §3; never a stack. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const response = toErrorResponse(error);
    if (response.unexpected) request.log.error({ err: error }, 'unexpected error');
    reply.code(response.status).headers(response.headers).send(response.body);
  });

  // A known path with another method is no route either (contract §3).
  app.setNotFoundHandler(() => {
    throw new AppError('NOT_FOUND');
  });

  // Answer 404 before any body is read or parsed; an over-long URL is refused whether or not it names a route.
  // A callback hook: every request runs it, and a promise per request costs more than the checks.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      checkRequestHead(request);
    } catch (error) {
      return done(error as Error);
    }
    done(request.is404 ? new AppError('NOT_FOUND') : undefined);
  });
}
