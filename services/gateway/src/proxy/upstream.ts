import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { AppError, validationFailed } from '@school/http';
import type { GatewayRoute } from '../routes/route-table.js';
import { clientResponseHeaders, upstreamRequestHeaders, type ForwardingOptions } from './forward-headers.js';

/** Connecting to a service on the same network takes milliseconds; waiting longer only delays the 503. */
const CONNECT_TIMEOUT_MS = 3_000;

export interface UpstreamOptions extends ForwardingOptions {
  timeoutMs: number;
}

/**
 * One undici Agent for all upstreams: it keeps a keep-alive connection pool per origin, i.e. per
 * service. The timeouts are the default of every forwarded request; streams override them.
 */
export async function registerUpstreamClient(app: FastifyInstance, options: UpstreamOptions): Promise<void> {
  await app.register(replyFrom, {
    undici: {
      connections: 128,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs) },
    },
    // Fastify already logs every request with its id; one more line per hop adds nothing.
    disableRequestLogging: true,
  });
}

/** Sends the request to `baseUrl` at its own path (plus the route's upstream prefix) and query. */
export function forward(request: FastifyRequest, reply: FastifyReply, route: GatewayRoute, baseUrl: string, options: UpstreamOptions): FastifyReply {
  const path = route.upstreamPrefix ? route.upstreamPrefix + pathOf(request.url) : pathOf(request.url);
  assertNoDotSegments(path);
  return reply.from(baseUrl + path, {
    // 0 disables undici's timeouts: an event stream is silent for as long as nothing happens.
    timeout: route.stream ? 0 : options.timeoutMs,
    ...(request.jsonBytes && { body: request.jsonBytes, contentType: request.headers['content-type'] ?? 'application/json' }),
    rewriteRequestHeaders: (_raw, headers) => upstreamRequestHeaders(request, headers, options),
    rewriteHeaders: (headers) => clientResponseHeaders(headers),
    // A service's own 503 is its answer to relay, not a reason to send the request again.
    retryDelay: () => null,
    onError: (failed, { error }) => {
      const ours = causeOfType(error, AppError);
      if (ours) {
        failed.send(ours);
        return;
      }
      // reply-from has logged the failure already (warn, with the upstream address).
      failed.send(new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error }));
    },
  });
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The upstream URL is resolved by the WHATWG parser, which would fold `..` (also `%2e%2e` and
 * backslashes) and let a path leave the route it matched. Such paths are refused instead.
 */
function assertNoDotSegments(path: string): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw validationFailed([{ field: 'path', message: 'Malformed percent-encoding' }]);
  }
  if (decoded.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) {
    throw validationFailed([{ field: 'path', message: 'Path must not contain . or .. segments' }]);
  }
}

function causeOfType<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof type) return current;
  }
  return undefined;
}
