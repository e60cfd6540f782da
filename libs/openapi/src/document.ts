import type { RouteManifest, RouteSpec } from '@school/contracts';
import { HTTP_METHODS, OPENAPI_VERSION, type HttpMethod, type OpenApiDocument, type Operation } from './openapi-types.js';
import { type DocumentOptions, operationOf } from './route-doc.js';

/** `/api/users/:publicId` -> `/api/users/{publicId}`; a trailing `*` (a key with slashes) -> `{key}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{key}');
}

function add(document: OpenApiDocument, method: string, path: string, operation: Operation): void {
  const item = (document.paths[path] ??= {});
  const key = method.toLowerCase() as HttpMethod;
  if (item[key]) throw new Error(`${method} ${path} is documented twice`);
  item[key] = operation;
}

/** The part of the API one service serves, in its own paths, from its contexts' manifests; the gateway merges the parts. */
export function serviceDocument(service: string, manifests: readonly RouteManifest[], options: DocumentOptions = {}): OpenApiDocument {
  const document: OpenApiDocument = { openapi: OPENAPI_VERSION, info: { title: service, version: '1' }, paths: {} };
  const routes: RouteSpec[] = manifests.flatMap((manifest) => Object.values(manifest));
  for (const route of routes) add(document, route.method, openApiPath(route.path), operationOf(route, options));
  return document;
}

/** Every operation of a document as `METHOD path`. */
export function operationKeys(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`));
}
