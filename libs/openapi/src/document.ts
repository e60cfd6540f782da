import { HTTP_METHODS, OPENAPI_VERSION, type HttpMethod, type OpenApiDocument } from './openapi-types.js';
import { operationOf, type RouteDoc } from './route-doc.js';

/** The part of the API one service serves, in its own paths; the gateway merges the parts. */
export function serviceDocument(service: string, routes: readonly RouteDoc[]): OpenApiDocument {
  const document: OpenApiDocument = { openapi: OPENAPI_VERSION, info: { title: service, version: '1' }, paths: {} };
  for (const route of routes) {
    const method = route.method.toLowerCase() as HttpMethod;
    const item = (document.paths[route.path] ??= {});
    if (item[method]) throw new Error(`${route.method} ${route.path} is documented twice`);
    item[method] = operationOf(route);
  }
  return document;
}

/** Every operation of a document as `METHOD path`. */
export function operationKeys(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`));
}

/** `/api/users/:publicId` -> `/api/users/{publicId}`; a trailing `*` (a key with slashes) -> `{key}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{key}');
}
