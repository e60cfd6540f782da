import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '@school/auth';
import type { ServiceName } from '@school/config';
import { authenticateHook } from '../auth/authenticate.hook.js';
import { forward, type UpstreamOptions } from '../proxy/upstream.js';
import { needsBody, THROTTLE_POLICIES } from '../throttle/policies.js';
import { throttleHook } from '../throttle/throttle.hook.js';
import type { Throttle } from '../throttle/throttle.js';
import { ROUTE_TABLE, type GatewayRoute } from './route-table.js';

type RequestHook = (request: FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route table entry a request matched; absent on the gateway's own routes and on 404s. */
    route?: GatewayRoute;
  }
}

export interface RouteDependencies {
  authenticator: Authenticator;
  throttle: Throttle;
  upstreams: Record<ServiceName, string>;
  upstream: UpstreamOptions;
  /** Called with each stream (SSE) response so shutdown can end them. */
  onStream?: (reply: FastifyReply) => void;
}

/**
 * One Fastify route per table entry. Order per request: authenticate (jwt routes), throttle (before
 * the body is read, so refused and invalid requests count; after it only for policies keyed on the
 * body), parse the body, forward.
 */
export function registerTableRoutes(app: FastifyInstance, deps: RouteDependencies): void {
  app.decorateRequest('principal', undefined);
  const authenticate = authenticateHook(deps.authenticator);
  for (const route of ROUTE_TABLE) {
    const onRequest: RequestHook[] = route.auth === 'jwt' ? [authenticate] : [];
    const preValidation: RequestHook[] = [];
    if (route.throttle) {
      const hook = throttleHook(deps.throttle, route.throttle, { trustProxy: deps.upstream.trustProxy });
      (needsBody(THROTTLE_POLICIES[route.throttle]) ? preValidation : onRequest).push(hook);
    }
    app.route({
      method: route.method,
      url: route.path,
      config: { route },
      onRequest,
      preValidation,
      handler: (request, reply) => {
        if (route.stream) deps.onStream?.(reply);
        return forward(request, reply, route, deps.upstreams[route.service], deps.upstream);
      },
    });
  }
}
