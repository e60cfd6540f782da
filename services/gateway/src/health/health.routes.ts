import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE, success } from '@school/http';
import { readiness, type ReadinessOptions } from './readiness.js';

/** The gateway's own routes: never proxied, throttled or authenticated. Probes poll them, so they log at warn only. */
export function registerHealthRoutes(app: FastifyInstance, options: ReadinessOptions): void {
  app.get('/health/live', { logLevel: 'warn' }, async () => success('OK', { status: 'ok' }));

  app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const report = await readiness(options);
    if (report.status === 'ok') return success('Ready', report);
    reply.code(ERROR_CATALOGUE.SERVICE_UNAVAILABLE.status);
    return { message: 'Not ready', data: report, errorCode: 'SERVICE_UNAVAILABLE' as const };
  });
}
