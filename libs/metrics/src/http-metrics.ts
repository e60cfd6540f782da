import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler } from 'fastify';
import type { Registry } from 'prom-client';
import { RequestHistogram, type RequestSeries } from './request-histogram.js';

/** The route label of requests no route matched (404): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

type Observer = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Counts and times every response by route pattern as registered (never the raw URL, whose
 * cardinality is unbounded), method and status code. Call before any route is registered: each
 * route gets its own onResponse observer holding its series, so a request costs two map lookups
 * and a histogram observation, with no work of its own after the response.
 */
export function instrumentHttpRoutes(app: FastifyInstance, registry: Registry): void {
  const histogram = new RequestHistogram(registry);
  app.addHook('onRoute', (route) => {
    const observer = routeObserver(histogram, route.url) as onResponseHookHandler;
    route.onResponse = route.onResponse === undefined ? [observer] : [...[route.onResponse].flat(), observer];
  });
  const unmatched = routeObserver(histogram, UNMATCHED_ROUTE);
  app.addHook('onResponse', (request, reply, done) => (request.is404 ? unmatched(request, reply, done) : done()));
}

function routeObserver(histogram: RequestHistogram, route: string): Observer {
  const byMethod = new Map<string, Map<number, RequestSeries>>();
  return (request, reply, done) => {
    // Node's parser accepts only the methods it knows, so this label stays bounded.
    const method = request.raw.method ?? 'UNKNOWN';
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, RequestSeries>()));
    const status = reply.statusCode;
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = histogram.series({ route, method, status_code: String(status) })));
    series.observe(reply.elapsedTime / 1000);
    done();
  };
}
