import { SERVICE_NAMES, type ServiceName } from '@school/config';
import {
  type HttpMethod,
  isJsonBody,
  rateLimitsOf,
  type RouteAuth,
  type RouteManifest,
  type RouteSpec,
  SERVICE_ROUTES,
  type Surface,
  type ThrottlePolicyName,
} from '@school/contracts';

// The table is not written here: each service's contexts declare their routes once, in @school/contracts.

export type { HttpMethod, RouteAuth };

/**
 * What a route accepts as a body. `json`: parsed by the gateway, at most JSON_BODY_LIMIT bytes.
 * `upload`: multipart streamed to the service, capped at `maxFiles` files of the surface's size
 * limit plus multipart overhead (see body/upload-limit.ts). `none`: no body is read.
 */
export type BodyRule = { kind: 'none' } | { kind: 'json' } | { kind: 'upload'; surface: Surface; maxFiles: number };

export interface GatewayRoute {
  method: HttpMethod;
  /** As the gateway serves it, in Fastify syntax (`:param`, trailing `*` for a key with slashes). */
  path: string;
  service: ServiceName;
  auth: RouteAuth;
  /** Each policy counts every request of the route; over any of them, 429. */
  throttles?: readonly ThrottlePolicyName[];
  /** Each policy counts every key of the JSON body's `keys` as one request, a batch refused whole (contract §9). */
  perKeyThrottles?: readonly ThrottlePolicyName[];
  /** Anything may refuse the route with 429 (its manifest's `rateLimitsOf`): documented from this, never by hand. */
  rateLimited?: boolean;
  body: BodyRule;
  /** The response carries tokens or a profile (contract §3): `Cache-Control: no-store`. */
  noStore?: boolean;
  /** Prepended to the path on the way upstream (the `/api`-less upload aliases of contract §2). */
  upstreamPrefix?: string;
  /** A long-lived response (Server-Sent Events): no upstream timeout. */
  stream?: boolean;
  /** Answers with a stored file: a CSP that runs nothing in it (contract §9). */
  servesFiles?: boolean;
}

const NO_BODY: BodyRule = { kind: 'none' };
const JSON_BODY: BodyRule = { kind: 'json' };

/** A GET reads no body; any other route but an upload takes JSON. */
function bodyRule(spec: RouteSpec): BodyRule {
  if (spec.body && !isJsonBody(spec.body)) return { kind: 'upload', surface: spec.body.upload.surface, maxFiles: spec.body.upload.maxFiles };
  return spec.method === 'GET' ? NO_BODY : JSON_BODY;
}

function gatewayRoute(service: ServiceName, spec: RouteSpec): GatewayRoute {
  return {
    method: spec.method,
    path: spec.path,
    service,
    auth: spec.auth,
    body: bodyRule(spec),
    ...(spec.throttles && { throttles: spec.throttles }),
    ...(spec.perKeyThrottles && { perKeyThrottles: spec.perKeyThrottles }),
    ...(rateLimitsOf(spec).length > 0 && { rateLimited: true }),
    ...(spec.noStore && { noStore: true }),
    ...(spec.stream && { stream: true }),
    ...(spec.servesFiles && { servesFiles: true }),
  };
}

/** The same route answered without `/api` as well (contract §2), forwarded upstream at its `/api` path. */
function withoutApiPrefix(canonical: GatewayRoute): GatewayRoute {
  return { ...canonical, path: canonical.path.slice('/api'.length), upstreamPrefix: '/api' };
}

/** A service's routes as its contexts' manifests declare them, each `/api`-less alias after its route. */
function fromManifests(service: ServiceName, manifests: readonly RouteManifest[]): GatewayRoute[] {
  return manifests
    .flatMap((manifest) => Object.values(manifest))
    .flatMap((spec) => {
      const route = gatewayRoute(service, spec);
      return spec.alsoWithoutApiPrefix ? [route, withoutApiPrefix(route)] : [route];
    });
}

/** A service just generated has no manifest yet: it serves no route through the gateway until one lists its routes. */
const MANIFESTS: Partial<Record<ServiceName, readonly RouteManifest[]>> = SERVICE_ROUTES;

/** Every route the gateway answers besides its own /health routes and docs; anything else is 404 NOT_FOUND. */
export const ROUTE_TABLE: readonly GatewayRoute[] = SERVICE_NAMES.flatMap((service) => fromManifests(service, MANIFESTS[service] ?? []));
