import type { FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'undici';
import { AppError, validationFailed } from '@school/http';
import type { GatewayRoute } from '../routes/route-table.js';
import { clientResponseHeaders, upstreamRequestHeaders, type ForwardingOptions } from './forward-headers.js';
import { retriesOnce } from './upstream-retry.js';

/** Connecting to a service on the same network takes milliseconds; waiting longer only delays the 503. */
const CONNECT_TIMEOUT_MS = 3_000;

/** reply-from retries after this many ms, and not at all for 0. */
const RETRY_AT_ONCE_MS = 1;

export interface UpstreamOptions extends ForwardingOptions {
  timeoutMs: number;
}

/**
 * An undici Agent keeps a keep-alive connection pool per origin, i.e. per service. One is shared by
 * every proxied route but two classes of their own: upload routes, so uploads in flight never hold the
 * connections signed URLs and the file proxy need, and event streams, without a bound (each open
 * stream holds a connection; their number is bounded per user instead). Timeouts are overridden per
 * route (see `proxyOptions`).
 */
export function createUpstreamAgent(options: UpstreamOptions, pool: { connections: number | null } = { connections: 128 }): Agent {
  return new Agent({
    connections: pool.connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs) },
  });
}

/**
 * The @fastify/http-proxy registration of one table entry: exactly its method and path (no `/*`
 * twin, no HEAD or OPTIONS), forwarded to `baseUrl` at the same raw path (after the route's upstream
 * prefix) with the raw query string. Bodies are parsed by the gateway's own parsers (body-parsers.ts);
 * a JSON body goes upstream as the bytes received.
 */
export function proxyOptions(route: GatewayRoute, baseUrl: string, agent: Agent, options: UpstreamOptions): FastifyHttpProxyOptions {
  return {
    upstream: baseUrl,
    routes: [route.path],
    httpMethods: [route.method],
    rewritePrefix: route.upstreamPrefix ?? '',
    internalRewriteLocationHeader: false,
    proxyPayloads: false,
    config: { route },
    undici: agent,
    // Before http-proxy's own destination check, so a refused path gets the envelope.
    preHandler: refuseDotSegments,
    // Fastify already logs every request with its id; one more line per hop adds nothing.
    disableRequestLogging: true,
    replyOptions: {
      // 0 disables undici's timeouts: an event stream is silent for as long as nothing happens.
      timeout: route.stream ? 0 : options.timeoutMs,
      // reply-from types the request for any server, HTTP/2 included; this one is plain HTTP/1.
      rewriteRequestHeaders: (request, headers) => upstreamRequestHeaders(request as FastifyRequest, headers, options),
      rewriteHeaders: (headers) => clientResponseHeaders(headers),
      // Once, at once, when nothing reached the service (see retriesOnce); a service's own 503 is its answer to relay.
      retryDelay: ({ err, req, attempt }) => (retriesOnce({ err, method: req.method, body: req.body, attempt }) ? RETRY_AT_ONCE_MS : null),
      onError: (failed, { error }) => {
        const ours = causeOfType(error, AppError);
        if (ours) {
          failed.send(ours);
          return;
        }
        // reply-from has logged the failure already (warn, with the upstream address).
        failed.send(new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error }));
      },
    },
    handler: (request, reply, dest, replyOptions) => {
      // reply-from sends a stream only as the request's own body.
      if (request.spooledBody) request.body = request.spooledBody.open();
      return reply.from(dest, request.jsonBytes ? { ...replyOptions, body: request.jsonBytes, contentType: request.headers['content-type'] ?? 'application/json' } : replyOptions);
    },
  };
}

/** Something to decode (a percent sign), a backslash, or a literal `.` or `..` segment. */
const SEGMENT_SUSPECT = /[%\\]|\/\.\.?(?:\/|$)/;

/**
 * The upstream URL is resolved by the WHATWG parser, which would fold `..` (also `%2e%2e` and
 * backslashes) and let a path leave the route it matched. Such paths are refused (http-proxy's own
 * check answers without the envelope and lets single-dot segments through). A callback hook, not an
 * async one: it runs on every proxied request and nearly always has nothing to do.
 */
export function refuseDotSegments(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const query = request.url.indexOf('?');
  const path = query === -1 ? request.url : request.url.slice(0, query);
  if (!SEGMENT_SUSPECT.test(path)) return done();
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return done(validationFailed([{ field: 'path', message: 'Malformed percent-encoding' }]));
  }
  if (decoded.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) {
    return done(validationFailed([{ field: 'path', message: 'Path must not contain . or .. segments' }]));
  }
  done();
}

function causeOfType<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof type) return current;
  }
  return undefined;
}
