import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyError, type FastifyReply, LogController } from 'fastify';
import { MAX_URL_LENGTH, REQUEST_ID_HEADER, requestId, toErrorResponse } from '@school/http';
import { EnvelopeExceptionFilter } from '@school/http/nest';
import { createMetricsRegistry, instrumentHttpRoutes, registerMetricsRoute, Registry } from '@school/metrics';
import { type Logger, registerAccessLog } from '@school/telemetry';
import { PinoNestLogger } from './nest-logger.js';
import { ReadinessRegistry } from './readiness.js';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ServiceAppOptions {
  logger: Logger;
  /** Largest accepted request body; JSON routes use the contract's 1 MB. */
  bodyLimit?: number;
  /** ACCESS_LOG_SAMPLE_RATE (default 1: every response). */
  accessLogSampleRate?: number;
}

function answerInEnvelope(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const { status, body, headers } = toErrorResponse(error);
  reply.code(status).headers(headers).send(body);
}

const isHealthProbe = (url: string) => url.startsWith('/health/');

/**
 * A NestJS application on the Fastify adapter with everything every service shares: the error
 * envelope, request ids (taken from the gateway's `x-request-id`) on every log line,
 * undeclared `__proto__`/`constructor` keys left to the route's schema, graceful shutdown, and
 * `GET /metrics` (Prometheus) with per-route request counts and latencies.
 */
export async function createServiceApp(module: Type | DynamicModule, options: ServiceAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: options.logger,
    // One access line per response (registerAccessLog) instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? JSON_BODY_LIMIT_BYTES,
    // `__proto__` and `constructor` stay plain own properties (JSON.parse never sets a prototype),
    // so the route's strict schema refuses them as undeclared fields with the route's own status:
    // 400, or 422 on the authenticated feedback route (contract §3), instead of a parser-level 400.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    return503OnClosing: true,
    // The gateway passes any path up to MAX_URL_LENGTH: a long parameter is the route's to judge (a 404), not the router's.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    // Errors raised while routing, before Nest sees the request, still answer the envelope.
    frameworkErrors: answerInEnvelope,
    genReqId: requestId,
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter());
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  // Nest registers its routes when the app initialises, after this: every one gets its observer.
  const metrics = registryOf(app);
  instrumentHttpRoutes(fastify, metrics);
  registerMetricsRoute(fastify, metrics);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  registerAccessLog(fastify, { successSampleRate: options.accessLogSampleRate ?? 1, skip: isHealthProbe });
  fastify.addHook('onClose', async () => {
    app.get(ReadinessRegistry, { strict: false }).markDraining();
  });
  return app;
}

/** The registry HealthModule provides (gauges of the app's modules report into it), else one of its own. */
function registryOf(app: NestFastifyApplication): Registry {
  try {
    return app.get(Registry, { strict: false });
  } catch {
    return createMetricsRegistry();
  }
}
