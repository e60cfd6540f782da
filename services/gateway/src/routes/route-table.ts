import type { ServiceName } from '@school/config';
import { type HttpMethod, isJsonBody, type RouteAuth, type RouteManifest, type RouteSpec, SERVICE_ROUTES, type Surface, type ThrottlePolicyName } from '@school/contracts';

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

interface RouteOptions {
  throttles?: readonly ThrottlePolicyName[];
  perKeyThrottles?: readonly ThrottlePolicyName[];
  body?: BodyRule;
  noStore?: boolean;
  stream?: boolean;
  servesFiles?: boolean;
}

const NO_BODY: BodyRule = { kind: 'none' };
const JSON_BODY: BodyRule = { kind: 'json' };

function route(method: HttpMethod, path: string, service: ServiceName, auth: RouteAuth, options: RouteOptions = {}): GatewayRoute {
  return {
    method,
    path,
    service,
    auth,
    body: options.body ?? (method === 'GET' ? NO_BODY : JSON_BODY),
    ...(options.throttles && { throttles: options.throttles }),
    ...(options.perKeyThrottles && { perKeyThrottles: options.perKeyThrottles }),
    ...(options.noStore && { noStore: true }),
    ...(options.stream && { stream: true }),
    ...(options.servesFiles && { servesFiles: true }),
  };
}

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
    ...(spec.noStore && { noStore: true }),
    ...(spec.stream && { stream: true }),
    ...(spec.servesFiles && { servesFiles: true }),
  };
}

/** A service's routes as its contexts' manifests declare them, each upload alias after its route. */
function fromManifests(service: ServiceName, manifests: readonly RouteManifest[]): GatewayRoute[] {
  return manifests
    .flatMap((manifest) => Object.values(manifest))
    .flatMap((spec) => {
      const route = gatewayRoute(service, spec);
      return spec.alsoWithoutApiPrefix ? alsoWithoutApiPrefix([route]) : [route];
    });
}

/** The same routes answered without `/api` as well (contract §2), forwarded upstream at their `/api` path. */
function alsoWithoutApiPrefix(routes: GatewayRoute[]): GatewayRoute[] {
  return routes.flatMap((canonical) => [canonical, { ...canonical, path: canonical.path.slice('/api'.length), upstreamPrefix: '/api' }]);
}

/** Login counts per ip and email, and per ip whatever the email (contract §4). */
const LOGIN = { throttles: ['login', 'loginPerIp'], noStore: true } as const;
/** Token pairs and profiles must not be kept by a browser or proxy cache. */
const PRIVATE = { noStore: true } as const;

const identity: GatewayRoute[] = [
  // spec §4.1, admin authentication
  route('POST', '/api/auth/login/email', 'identity', 'public', LOGIN),
  route('POST', '/api/auth/password/forgot', 'identity', 'public', { throttles: ['forgotPassword'] }),
  route('POST', '/api/auth/password/reset', 'identity', 'public', { throttles: ['resetPassword'] }),
  route('POST', '/api/auth/password/set', 'identity', 'jwt', { throttles: ['setPassword'] }),
  route('POST', '/api/auth/email/verify/resend', 'identity', 'public', { throttles: ['emailVerifyResend'] }),
  route('POST', '/api/auth/email/verify/confirm', 'identity', 'public'),
  route('POST', '/api/auth/refresh', 'identity', 'public', PRIVATE),
  route('GET', '/api/auth/me', 'identity', 'jwt', PRIVATE),
  route('GET', '/api/auth/permissions', 'identity', 'jwt', PRIVATE),
  route('POST', '/api/auth/phone/verify/request', 'identity', 'jwt'),
  route('POST', '/api/auth/phone/verify/confirm', 'identity', 'jwt'),
  route('DELETE', '/api/auth/logout', 'identity', 'jwt'),
  // contract §10, the caller's sessions
  route('GET', '/api/auth/sessions', 'identity', 'jwt', PRIVATE),
  route('DELETE', '/api/auth/sessions', 'identity', 'jwt'),
  route('DELETE', '/api/auth/sessions/:id', 'identity', 'jwt'),
  // spec §4.2, customer mobile authentication
  route('POST', '/api/mobile/auth/login/email', 'identity', 'public', LOGIN),
  route('POST', '/api/mobile/auth/refresh', 'identity', 'public', PRIVATE),
  route('POST', '/api/mobile/auth/password/forgot', 'identity', 'public', { throttles: ['forgotPassword'] }),
  route('POST', '/api/mobile/auth/password/reset', 'identity', 'public', { throttles: ['resetPassword'] }),
  route('POST', '/api/mobile/auth/password/set', 'identity', 'jwt', { throttles: ['setPassword'] }),
  route('POST', '/api/mobile/auth/email/verify/resend', 'identity', 'public', { throttles: ['emailVerifyResend'] }),
  route('POST', '/api/mobile/auth/email/verify/confirm', 'identity', 'public'),
  route('GET', '/api/mobile/auth/me', 'identity', 'jwt', PRIVATE),
  route('DELETE', '/api/mobile/auth/logout', 'identity', 'jwt'),
  route('GET', '/api/mobile/auth/sessions', 'identity', 'jwt', PRIVATE),
  route('DELETE', '/api/mobile/auth/sessions', 'identity', 'jwt'),
  route('DELETE', '/api/mobile/auth/sessions/:id', 'identity', 'jwt'),
  // contract §6, users: profiles and pages of profiles
  route('GET', '/api/users', 'identity', 'jwt', PRIVATE),
  route('POST', '/api/users', 'identity', 'jwt', PRIVATE),
  route('GET', '/api/users/:publicId', 'identity', 'jwt', PRIVATE),
  route('PATCH', '/api/users/:publicId', 'identity', 'jwt', PRIVATE),
  route('DELETE', '/api/users/:publicId', 'identity', 'jwt', PRIVATE),
  // contract §10, an account's sessions
  route('GET', '/api/users/:publicId/sessions', 'identity', 'jwt', PRIVATE),
  route('DELETE', '/api/users/:publicId/sessions', 'identity', 'jwt'),
  // contract §4, public keys of the access tokens
  route('GET', '/.well-known/jwks.json', 'identity', 'public'),
];

/** Every route the gateway answers besides its own /health routes; anything else is 404 NOT_FOUND. */
export const ROUTE_TABLE: readonly GatewayRoute[] = [
  ...identity,
  ...fromManifests('reference-data', SERVICE_ROUTES['reference-data']),
  ...fromManifests('feedback', SERVICE_ROUTES.feedback),
  ...fromManifests('media', SERVICE_ROUTES.media),
  ...fromManifests('notifier', SERVICE_ROUTES.notifier),
];
