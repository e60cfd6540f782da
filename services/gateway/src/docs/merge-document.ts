import type { ServiceName } from '@school/config';
import { MAX_URL_LENGTH } from '@school/http';
import { addErrors, type HttpMethod, OPENAPI_VERSION, openApiPath, type OpenApiDocument, type Operation, type RouteError, tagDescription } from '@school/openapi';
import type { GatewayRoute } from '../routes/route-table.js';

export type ServiceParts = Partial<Record<ServiceName, OpenApiDocument>>;

export const BEARER_SCHEME = 'bearerAuth';

const INFO = {
  title: 'School-commerce API',
  version: '1',
  description:
    'Every operation the gateway answers. Bodies use the envelope `{ message, data, errorCode }`; ' +
    'errors carry an `errorCode` from the catalogue, listed per operation in `x-error-codes`. ' +
    'Any request may be refused by the gateway before its route: 400 VALIDATION_FAILED when malformed ' +
    '(HTTP, percent-encoding, JSON, content type, Host), 408 REQUEST_TIMEOUT when not received in time, ' +
    `414 URI_TOO_LONG above ${MAX_URL_LENGTH} bytes of path and query, 431 HEADERS_TOO_LARGE.`,
};

/** Relative: the document describes the gateway that serves it, wherever it is reached. */
const SERVERS = [{ url: '/', description: 'The gateway serving this document, in any environment (local, staging, production)', 'x-internal': false }];

/** Contract §4 access tokens; the verifier follows RFC8725 (JWT best current practices). */
const BEARER = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'An access token from a login or refresh of the route’s surface (contract §4): a JWT signed with EdDSA or ES256, 15 minutes. ' +
    'Verified as RFC8725 recommends: asymmetric algorithms only (none and HMAC never verify), issuer, audience and expiry checked; a revoked session is refused at once.',
};

/** What the gateway answers on any route, before the route's own checks (contract §3). */
const REQUEST_ERRORS: readonly RouteError[] = ['VALIDATION_FAILED', 'REQUEST_TIMEOUT', 'URI_TOO_LONG', 'HEADERS_TOO_LARGE'];

/** `POST /api/users/{publicId}` -> `postApiUsersByPublicId`: unique because method and path are. */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith('{') ? ['by', segment.slice(1, -1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** What is known of a route whose service has not (yet) given its part: its method, path, auth and gateway errors. */
function placeholder(route: GatewayRoute, path: string): Operation {
  return {
    summary: `${route.method} ${path}`,
    description: `The ${route.service} service has not answered yet; its description is fetched again shortly.`,
    tags: [route.service],
    parameters: pathParameterNames(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    responses: { '200': { description: 'Success' } },
    'x-error-codes': {},
    'x-description-unavailable': true,
  };
}

/** The errors the gateway answers itself before or instead of the service. */
function gatewayErrors(route: GatewayRoute): RouteError[] {
  return [
    ...REQUEST_ERRORS,
    ...(route.auth === 'jwt' ? (['AUTH_UNAUTHENTICATED'] as const) : []),
    ...(route.rateLimited ? (['RATE_LIMITED'] as const) : []),
    ...(route.body.kind === 'json' ? (['PAYLOAD_TOO_LARGE'] as const) : []),
    'SERVICE_UNAVAILABLE',
  ];
}

function gatewayOperation(route: GatewayRoute, parts: ServiceParts): Operation {
  const path = openApiPath(route.path);
  const upstreamPath = openApiPath(`${route.upstreamPrefix ?? ''}${route.path}`);
  const documented = parts[route.service]?.paths[upstreamPath]?.[route.method.toLowerCase() as HttpMethod];
  const base: Operation = documented ? structuredClone(documented) : placeholder(route, path);
  const operation: Operation = {
    ...base,
    operationId: operationId(route.method, path),
    security: route.auth === 'jwt' ? [{ [BEARER_SCHEME]: [] }] : [],
  };
  if (route.upstreamPrefix) operation.description = [`The same as ${upstreamPath}.`, base.description].filter(Boolean).join(' ');
  return addErrors(operation, gatewayErrors(route));
}

/**
 * The public API: exactly the operations of the route table, each from its service's part (found
 * at the path the gateway forwards to), with the table's auth and the gateway's own errors. A
 * route whose service has not answered yet keeps a placeholder, so the document is never short of
 * a route and never holds one the gateway does not answer.
 */
export function mergeDocument(routes: readonly GatewayRoute[], parts: ServiceParts): OpenApiDocument {
  const document: OpenApiDocument = {
    openapi: OPENAPI_VERSION,
    info: INFO,
    servers: SERVERS,
    paths: {},
    components: { securitySchemes: { [BEARER_SCHEME]: BEARER } },
  };
  const tags = new Set<string>();
  for (const route of routes) {
    const operation = gatewayOperation(route, parts);
    for (const tag of operation.tags ?? []) tags.add(tag);
    const item = (document.paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase() as HttpMethod] = operation;
  }
  document.tags = [...tags].map((name) => ({ name, description: tagDescription(name) }));
  return document;
}
