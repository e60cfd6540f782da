import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Authenticator, closeRedis, createAuthRedis, ForwardingSecret, JwtVerifier, SessionRevocations } from '@school/auth';
import { SERVICE_NAMES, type ServiceName } from '@school/config';
import { AppError, requestId } from '@school/http';
import { createMetricsRegistry, instrumentHttpRoutes, type Registry } from '@school/metrics';
import { createLogger, type Logger, registerAccessLog } from '@school/telemetry';
import { registerBodyParsers } from './body/body-parsers.js';
import { UploadSpool } from './body/upload-spool.js';
import { mebibytes } from './body/body-limits.js';
import { upstreamUrl, type GatewayConfig } from './config.js';
import { registerDocsRoutes } from './docs/docs.routes.js';
import { ServiceDocParts } from './docs/service-parts.js';
import { registerErrorHandling } from './errors.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { answerClientError, answerFrameworkError } from './http/client-errors.js';
import { MAX_URL_LENGTH } from './http/request-limits.js';
import { registerResponseHeaders } from './http/response-headers.js';
import { registerTableRoutes } from './proxy/register-routes.js';
import { registerClientAddress } from './request/client-ip.js';
import { ROUTE_TABLE } from './routes/route-table.js';
import { LiveStreams } from './streams/live-streams.js';
import { DEFAULT_THROTTLE_KEY_PREFIX, Throttle } from './throttle/throttle.js';
import { UploadsInFlight } from './throttle/uploads-in-flight.js';
import { registerRequestSpans } from './tracing/request-span.js';

export interface GatewayDependencies {
  logger?: Logger;
  /** Shared by throttling and the session revocation check. Created from REDIS_URL (and closed) when absent. */
  redis?: Redis;
  authenticator?: Authenticator;
  /** Tests isolate their throttle counters with a random prefix. */
  throttleKeyPrefix?: string;
  readinessTimeoutMs?: number;
  /** How often a missing service's API description is asked for again (tests shorten it). */
  docsRetryMs?: number;
  /** Where request, latency and throttle metrics go; main serves it on METRICS_PORT, never on PORT. */
  metrics?: Registry;
  /** Where the upload spool makes its directory (the system's temporary directory when absent). */
  uploadSpoolParent?: string;
}

const isHealthProbe = (url: string) => url.startsWith('/health/');

/** How long start-up waits for the first Redis connection before serving with the in-memory throttle. */
const REDIS_CONNECT_WAIT_MS = 3_000;

/** The gateway, routes registered and not yet listening (tests listen on port 0). */
export async function buildGateway(config: GatewayConfig, deps: GatewayDependencies = {}): Promise<FastifyInstance> {
  const logger = deps.logger ?? createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const redis = deps.redis ?? createAuthRedis(config.REDIS_URL, { onError: (error) => logger.debug({ err: error }, 'Redis connection error') });
  // Started with the gateway and stopped with it, unless a test brings its own authenticator.
  const revocations = deps.authenticator ? undefined : new SessionRevocations(redis);
  const authenticator =
    deps.authenticator ??
    new Authenticator(
      new JwtVerifier({ jwksUrl: config.JWKS_URL, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, jwksCacheMaxAgeMs: config.JWKS_CACHE_SECONDS * 1000 }),
      revocations!,
    );
  const metrics = deps.metrics ?? createMetricsRegistry();
  const throttle = new Throttle(redis, { logger, metrics, ...(deps.throttleKeyPrefix && { keyPrefix: deps.throttleKeyPrefix }) });
  const uploadsInFlight = new UploadsInFlight(redis, { logger, keyPrefix: deps.throttleKeyPrefix ?? DEFAULT_THROTTLE_KEY_PREFIX });
  const uploadSpool = await UploadSpool.create(deps.uploadSpoolParent);
  const forwardingSecret = new ForwardingSecret(redis, config.FORWARDING_SECRET);
  const upstreams = Object.fromEntries(SERVICE_NAMES.map((name) => [name, upstreamUrl(config, name)])) as Record<ServiceName, string>;
  const streams = new LiveStreams(redis, { keyPrefix: deps.throttleKeyPrefix ?? DEFAULT_THROTTLE_KEY_PREFIX, logger, ...(revocations && { revocations }) });
  let closing = false;

  // Typed as Fastify's logger, so the instance and every hook share one Logger type parameter.
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance,
    genReqId: requestId,
    // The label every service logs its request id under; one access line per response (registerAccessLog).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    // A route is a method and a path (contract §3): no implicit HEAD twins of GET routes.
    exposeHeadRoutes: false,
    // Requests arriving on open connections while closing get the envelope (onRequest below), not Fastify's body.
    return503OnClosing: false,
    ...connectionLimits(config),
    // The one URL limit is MAX_URL_LENGTH; the router must not refuse a shorter parameter on its own.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });

  instrumentHttpRoutes(app, metrics);
  registerRequestSpans(app, isHealthProbe);
  registerAccessLog(app, { successSampleRate: config.ACCESS_LOG_SAMPLE_RATE, skip: isHealthProbe });
  registerResponseHeaders(app);
  registerErrorHandling(app);
  registerClientAddress(app, config.TRUST_PROXY);
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new AppError('SERVICE_UNAVAILABLE'));
  });

  registerBodyParsers(app, { adminUploadMaxFileBytes: mebibytes(config.UPLOAD_MAX_FILE_SIZE_MB), uploadSpool, uploadIdleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_MS });
  registerHealthRoutes(app, {
    redis,
    upstreams,
    draining: () => closing,
    ...(deps.readinessTimeoutMs && { timeoutMs: deps.readinessTimeoutMs }),
  });
  const docParts = new ServiceDocParts(upstreams, { logger, ...(deps.docsRetryMs && { retryMs: deps.docsRetryMs }) });
  registerDocsRoutes(app, { routes: ROUTE_TABLE, parts: docParts, logger });
  await registerTableRoutes(app, {
    authenticator,
    throttle,
    uploadsInFlight,
    upstreams,
    upstream: { trustedProxies: config.TRUST_PROXY, timeoutMs: config.UPSTREAM_TIMEOUT_MS, forwardingSecret },
    bodyTimeoutMs: config.REQUEST_BODY_TIMEOUT_MS,
    admitStream: streams.admit,
  });

  app.addHook('onReady', async () => {
    docParts.start();
    await redisConnected(redis, REDIS_CONNECT_WAIT_MS);
    await forwardingSecret.start();
    await revocations?.start(REDIS_CONNECT_WAIT_MS);
  });
  const unusedConnections = trackUnusedConnections(app.server);
  app.addHook('preClose', async () => {
    closing = true;
    docParts.stop();
    // Event streams never finish on their own; ending them lets clients reconnect to another replica.
    streams.endAll();
    // Node's close() waits for connections that never carried a request (browsers preconnect).
    for (const socket of unusedConnections) socket.destroy();
  });
  app.addHook('onClose', async () => {
    streams.close();
    forwardingSecret.stop();
    await revocations?.stop();
    await uploadSpool.close();
    if (deps.redis) return;
    await closeRedis(redis);
  });
  return app;
}

/**
 * Node's own clocks, counted from a request's first byte: the headers within HEADERS_TIMEOUT_MS,
 * the whole request within UPLOAD_BODY_TIMEOUT_MS (the longest any route allows; JSON routes are
 * cut sooner, see bodyDeadlineHook); an idle kept-alive connection closes after KEEP_ALIVE_TIMEOUT_MS.
 * A request past its time gets 408 REQUEST_TIMEOUT from answerClientError.
 */
function connectionLimits(config: GatewayConfig) {
  const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, config.UPLOAD_BODY_TIMEOUT_MS);
  return {
    requestTimeout: config.UPLOAD_BODY_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout,
      // Node looks for expired requests this often (30 s by default, too coarse for a 15 s limit).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // A request without Host gets the envelope from checkRequestHead, not Node's empty 400.
      requireHostHeader: false,
    },
  };
}

function trackUnusedConnections(server: Server): Set<Socket> {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  return unused;
}

/** Resolves once Redis is ready, fails to connect, or the wait is over: the gateway serves either way. */
function redisConnected(redis: Redis, waitMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    redis.once('ready', done);
    redis.once('error', done);
  });
}
