import type { z } from 'zod';
import type { Permission } from '../auth/permissions.js';
import type { Surface } from '../auth/surfaces.js';
import type { ErrorCode } from '../http/error-codes.js';
import type { ApiTag } from './api-tags.js';
import type { ServiceLimitName, ThrottlePolicyName } from './throttle-policies.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `jwt`: a valid access token is required; the gateway verifies it before the service sees the request, and the service again. */
export type RouteAuth = 'public' | 'jwt';

/** A JSON body, validated by `json` (400 VALIDATION_FAILED, or the route's `validationStatus`). */
export interface JsonBody {
  json: z.ZodType;
  example?: unknown;
}

/**
 * A multipart upload streamed through the gateway to the service: one file in `field`, or 1 to
 * `maxFiles` files; each at most the surface's size limit (the gateway's and the service's configuration).
 */
export interface UploadBody {
  upload: { surface: Surface; field: string; maxFiles: number; contentTypes?: readonly string[] };
}

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON body; the handler's result is typed by it. */
  schema?: z.ZodType;
  /** A body that is not JSON (a file, an event stream): each media type it may have, and its JSON Schema. */
  raw?: { contentTypes: readonly string[]; schema: Record<string, unknown> };
  example?: unknown;
  /** Headers the route sets on this answer, for its OpenAPI description (JSON Schema of each value). */
  headers?: Readonly<Record<string, { description: string; schema: Record<string, unknown> }>>;
}

/** An error code a route answers with; `status` only where the route departs from the catalogue (422 on one route). */
export type RouteError = ErrorCode | { code: ErrorCode; status: number };

/**
 * One route, declared once: the gateway's table, the service's handler metadata (method, path,
 * status, guard, validation) and its part of the OpenAPI document all come from it. `path` is in
 * Fastify syntax (`:publicId`; a trailing `*` for a key with slashes).
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  /** The permissions the caller's role must hold (403 PERMISSION_INSUFFICIENT otherwise). */
  permissions?: readonly Permission[];
  /**
   * The login surface of the route (contract §4). `token`: a token of the other surface does not
   * authenticate (401); a public route of the surface issues its tokens. `caller`: a valid token of
   * the other surface is refused 403 PERMISSION_INSUFFICIENT (the upload routes).
   */
  surface?: { surface: Surface; check: 'token' | 'caller' };
  /** Throttle policies counting every request of the route; over any of them, 429. */
  throttles?: readonly ThrottlePolicyName[];
  /** Policies counting every key of the JSON body's `keys` as one request, a batch refused whole (contract §9). */
  perKeyThrottles?: readonly ThrottlePolicyName[];
  /** Limits the service keeps itself, answered 429 with `Retry-After` (see `rateLimitsOf` for every source of a route's 429). */
  serviceLimits?: readonly ServiceLimitName[];
  /** Also answered without `/api`, forwarded upstream at the `/api` path (the upload aliases of contract §2). */
  alsoWithoutApiPrefix?: boolean;
  /** The response carries tokens or a profile (contract §3): `Cache-Control: no-store`. */
  noStore?: boolean;
  /** A long-lived response (Server-Sent Events): no upstream timeout. */
  stream?: boolean;
  /** Answers with a stored file: a CSP that runs nothing in it (contract §9). */
  servesFiles?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: JsonBody | UploadBody;
  response: RouteResponse;
  /** Other successes (206 for a byte range). */
  alsoAnswers?: readonly RouteResponse[];
  /** The route's own error codes; VALIDATION_FAILED is added for any route with a query or a body, PERMISSION_INSUFFICIENT for one with permissions. */
  errors?: readonly RouteError[];
  /** Status of a validation failure where the contract departs from 400 (the authenticated feedback route: 422). */
  validationStatus?: number;
  tag: ApiTag;
  summary: string;
  description?: string;
}

/** A context's routes by handler name: `@Route(FEEDBACK_ROUTES.submitAsGuest)`. */
export type RouteManifest = Readonly<Record<string, RouteSpec>>;

/** Checks a manifest's entries while keeping their literal types (a handler's body type comes from its entry). */
export function routeManifest<const Manifest extends Record<string, RouteSpec>>(manifest: Manifest): Manifest {
  return manifest;
}

/** One route kept with its literal types, for a helper that builds several alike (`routeManifest` checks the whole). */
export function routeSpec<const Spec extends RouteSpec>(spec: Spec): Spec {
  return spec;
}

export function isJsonBody(body: RouteSpec['body']): body is JsonBody {
  return body !== undefined && 'json' in body;
}

/** What a handler receives as the validated JSON body of `Spec`. */
export type BodyOf<Spec extends RouteSpec> = Spec['body'] extends JsonBody ? z.output<Spec['body']['json']> : never;

/** What a handler receives as the validated query of `Spec`. */
export type QueryOf<Spec extends RouteSpec> = Spec['query'] extends z.ZodObject ? z.output<Spec['query']> : never;

/** What a handler answers on `Spec` (its JSON success body); mappers are typed by it. */
export type ResponseOf<Spec extends RouteSpec> = Spec['response']['schema'] extends z.ZodType ? z.input<Spec['response']['schema']> : never;
