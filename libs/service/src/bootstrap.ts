import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { EnvelopeExceptionFilter } from '@school/http/nest';
import { type Logger, registerAccessLog } from '@school/telemetry';
import { PinoNestLogger } from './nest-logger.js';
import { ReadinessRegistry } from './readiness.js';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface ServiceAppOptions {
  logger: Logger;
  /** Largest accepted request body; JSON routes use the contract's 1 MB. */
  bodyLimit?: number;
  /** ACCESS_LOG_SAMPLE_RATE (default 1: every response). */
  accessLogSampleRate?: number;
}

const isHealthProbe = (url: string) => url.startsWith('/health/');

/**
 * A NestJS application on the Fastify adapter with everything every service shares: the error
 * envelope, request ids (taken from the gateway's `x-request-id`) on every log line,
 * undeclared `__proto__`/`constructor` keys left to the route's schema, and graceful shutdown.
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
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter());
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerAccessLog(fastify, { successSampleRate: options.accessLogSampleRate ?? 1, skip: isHealthProbe });
  fastify.addHook('onClose', async () => {
    app.get(ReadinessRegistry, { strict: false }).markDraining();
  });
  return app;
}
