import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** The route label of requests no route matched (404): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Observer = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Counts and times every response by route pattern as registered (never the raw URL, whose
 * cardinality is unbounded), method and status code. Call before any route is registered: each
 * route gets its own onResponse observer holding its label children, so a request costs two map
 * lookups and prom-client's observe, with no work of its own after the response.
 */
export function instrumentHttpRoutes(app: FastifyInstance, registry: Registry): void {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP responses by route pattern, method and status code: time from the request to the response in seconds (_count is the number of requests).',
    labelNames: ['route', 'method', 'status_code'],
    buckets: BUCKETS_SECONDS,
    registers: [registry],
  });
  app.addHook('onRoute', (route) => {
    const observer = routeObserver(histogram, route.url) as onResponseHookHandler;
    route.onResponse = route.onResponse === undefined ? [observer] : [...[route.onResponse].flat(), observer];
  });
  const unmatched = routeObserver(histogram, UNMATCHED_ROUTE);
  app.addHook('onResponse', (request, reply, done) => (request.is404 ? unmatched(request, reply, done) : done()));
}

function routeObserver(histogram: Histogram<'route' | 'method' | 'status_code'>, route: string): Observer {
  const byMethod = new Map<string, Map<number, Histogram.Internal<'route' | 'method' | 'status_code'>>>();
  return (request, reply, done) => {
    // Node's parser accepts only the methods it knows, so this label stays bounded.
    const method = request.raw.method ?? 'UNKNOWN';
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    const status = reply.statusCode;
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = histogram.labels(route, method, String(status))));
    child.observe(reply.elapsedTime / 1000);
    done();
  };
}
