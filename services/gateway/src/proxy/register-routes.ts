import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '@school/auth';
import type { ServiceName } from '@school/config';
import { THROTTLE_POLICIES } from '@school/contracts';
import { authenticateHook } from '../auth/authenticate.hook.js';
import { bodyDeadlineHook } from '../body/body-deadline.js';
import { discardSpooledBodyOnClose } from '../body/body-parsers.js';
import { createUpstreamAgent, proxyOptions, type UpstreamOptions } from './upstream.js';
import { needsBody } from '../throttle/policies.js';
import { signedUrlKeyCount, throttleHook } from '../throttle/throttle.hook.js';
import type { Throttle } from '../throttle/throttle.js';
import type { UploadsInFlight } from '../throttle/uploads-in-flight.js';
import { uploadsInFlightHook } from '../throttle/uploads-in-flight.hook.js';
import { ROUTE_TABLE, type GatewayRoute } from '../routes/route-table.js';

/** Per service; an upload holds one only while its spooled body goes upstream and media answers. */
const UPLOAD_CONNECTIONS = 64;

type RequestHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route table entry a request matched; absent on the gateway's own routes and on 404s. */
    route?: GatewayRoute;
  }
}

export interface RouteDependencies {
  authenticator: Authenticator;
  throttle: Throttle;
  uploadsInFlight: UploadsInFlight;
  upstreams: Record<ServiceName, string>;
  upstream: UpstreamOptions;
  /** How long a JSON body may take to arrive after its headers. */
  bodyTimeoutMs: number;
  /** Admits each stream (SSE) request: the per-user limit, the cut on revocation, the end at shutdown. */
  admitStream: RequestHook;
}

/**
 * One @fastify/http-proxy registration per table entry, restricted to the entry's method and path.
 * Order per request: authenticate (jwt routes), throttle (before the body is read, so refused and
 * invalid requests count; after it only for policies keyed on the body), take an upload slot (upload
 * routes), parse the body within its deadline, forward.
 */
export async function registerTableRoutes(app: FastifyInstance, deps: RouteDependencies): Promise<void> {
  app.decorateRequest('principal', undefined);
  const authenticate = authenticateHook(deps.authenticator);
  const bodyDeadline = bodyDeadlineHook(deps.bodyTimeoutMs);
  const uploadSlot = uploadsInFlightHook(deps.uploadsInFlight);

  // http-proxy takes no onRequest option: each entry's hooks join its route as Fastify adds it.
  app.addHook('onRoute', (options) => {
    const route = options.config?.route;
    if (!route) return;
    const onRequest: RequestHook[] = route.body.kind === 'upload' ? [discardSpooledBodyOnClose] : [];
    if (route.auth === 'jwt') onRequest.push(authenticate);
    const preValidation: RequestHook[] = [];
    for (const policy of route.throttles ?? []) {
      const hook = throttleHook(deps.throttle, policy);
      (needsBody(THROTTLE_POLICIES[policy]) ? preValidation : onRequest).push(hook);
    }
    for (const policy of route.perKeyThrottles ?? []) {
      preValidation.push(throttleHook(deps.throttle, policy, { batchSize: signedUrlKeyCount }));
    }
    if (route.body.kind === 'upload') onRequest.push(uploadSlot);
    if (route.stream) onRequest.push(deps.admitStream);
    options.onRequest = onRequest;
    options.preValidation = preValidation;
    if (route.body.kind === 'json') options.preParsing = [bodyDeadline];
  });

  const agent = createUpstreamAgent(deps.upstream);
  // Contract §9: open streams hold their connections for hours, and uploads theirs while media works;
  // neither takes one from other routes.
  const streamAgent = createUpstreamAgent(deps.upstream, { connections: null });
  const uploadAgent = createUpstreamAgent(deps.upstream, { connections: UPLOAD_CONNECTIONS });
  app.addHook('onClose', () => Promise.all([agent.close(), streamAgent.close(), uploadAgent.close()]));
  for (const route of ROUTE_TABLE) {
    const routeAgent = route.stream ? streamAgent : route.body.kind === 'upload' ? uploadAgent : agent;
    await app.register(httpProxy, proxyOptions(route, deps.upstreams[route.service], routeAgent, deps.upstream));
  }
}
