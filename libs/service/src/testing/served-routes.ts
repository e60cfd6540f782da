import { isDeepStrictEqual } from 'node:util';
import { type INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { REQUIRED_PERMISSIONS, REQUIRED_SURFACE, TOKEN_SURFACE } from '@school/auth/nest';
import type { RouteManifest, RouteSpec } from '@school/contracts';
import { ROUTE_SPEC } from '../route/route.decorator.js';

/** How a handler is guarded, as the AuthGuard reads it (the controller's layer and the handler's). */
interface HandlerGuard {
  jwt: boolean;
  permissions: string[];
  tokenSurfaces: string[];
  requiredSurfaces: string[];
}

interface ServedRoute {
  /** `METHOD /path` as Nest registers the handler. */
  key: string;
  handler: string;
  /** The manifest entry the handler serves (@Route()); absent on a handler declared otherwise. */
  spec: RouteSpec | undefined;
  guard: HandlerGuard;
}

/** The routes every service serves besides its manifests' (health, its OpenAPI part). */
const PLATFORM_ROUTES = /^GET \/(health\/|openapi\.json$)/;

function joinPath(prefix: string | undefined, path: string | undefined): string {
  const joined = ['', prefix ?? '', path ?? '']
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

function layers<T>(key: symbol, targets: readonly object[]): T[] {
  return targets.map((target) => Reflect.getMetadata(key, target) as T | undefined).filter((value): value is T => value !== undefined);
}

function guardOf(controller: object, handler: object): HandlerGuard {
  const targets = [controller, handler];
  const permissions = layers<string[]>(REQUIRED_PERMISSIONS, targets);
  const requiredSurfaces = layers<string>(REQUIRED_SURFACE, targets);
  return {
    jwt: permissions.length > 0 || requiredSurfaces.length > 0,
    permissions: permissions.flat().sort(),
    tokenSurfaces: layers<string>(TOKEN_SURFACE, targets),
    requiredSurfaces,
  };
}

/** The methods of a controller, those of the classes it extends included (a subclass's first); accessors are not read. */
function methodsOf(prototype: object): Array<{ name: string; handler: object }> {
  const methods = new Map<string, object>();
  for (let at: object | null = prototype; at && at !== Object.prototype; at = Object.getPrototypeOf(at) as object | null) {
    for (const name of Object.getOwnPropertyNames(at)) {
      const value: unknown = Object.getOwnPropertyDescriptor(at, name)?.value;
      if (name !== 'constructor' && typeof value === 'function' && !methods.has(name)) methods.set(name, value);
    }
  }
  return [...methods].map(([name, handler]) => ({ name, handler }));
}

/** Every HTTP handler of the running app's controllers but the platform's, with the manifest entry and guard it carries. */
function servedRoutes(app: INestApplication): ServedRoute[] {
  const served: ServedRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const { name, handler } of methodsOf(controller.prototype as object)) {
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const key = `${RequestMethod[method]} ${joinPath(Reflect.getMetadata(PATH_METADATA, controller) as string, Reflect.getMetadata(PATH_METADATA, handler) as string)}`;
        if (PLATFORM_ROUTES.test(key)) continue;
        served.push({ key, handler: `${controller.name}.${name}`, spec: Reflect.getMetadata(ROUTE_SPEC, handler) as RouteSpec | undefined, guard: guardOf(controller, handler) });
      }
    }
  }
  return served;
}

/** The guard a manifest entry asks for: what @Route() applies, and nothing else may add or remove. */
function guardFor(spec: RouteSpec): HandlerGuard {
  const jwt = spec.auth === 'jwt';
  return {
    jwt,
    permissions: jwt ? [...(spec.permissions ?? [])].sort() : [],
    tokenSurfaces: jwt && spec.surface?.check === 'token' ? [spec.surface.surface] : [],
    requiredSurfaces: jwt && spec.surface?.check === 'caller' ? [spec.surface.surface] : [],
  };
}

/** `METHOD /path` of every entry of the manifests. */
function manifestKeys(manifests: readonly RouteManifest[]): string[] {
  return manifests.flatMap((manifest) => Object.values(manifest).map((spec) => `${spec.method} ${spec.path}`));
}

/**
 * How the handlers a running app serves differ from its route manifests, a line each: an entry no
 * handler serves, or two; a handler outside them, declared without @Route(), registered at another
 * method or path than its entry, or guarded otherwise than its entry says. Empty when they agree.
 */
export function manifestMismatches(app: INestApplication, manifests: readonly RouteManifest[]): string[] {
  const served = servedRoutes(app);
  const expected = manifestKeys(manifests);
  const mismatches: string[] = [];
  for (const key of expected) {
    const handlers = served.filter((route) => route.key === key).length;
    if (handlers !== 1) mismatches.push(`${key}: served by ${handlers} handlers`);
  }
  for (const { key, handler, spec, guard } of served) {
    const route = `${key} (${handler})`;
    if (!expected.includes(key)) mismatches.push(`${route}: in no manifest`);
    else if (!spec) mismatches.push(`${route}: declared without @Route()`);
    else if (`${spec.method} ${spec.path}` !== key) mismatches.push(`${route}: its entry says ${spec.method} ${spec.path}`);
    else if (!isDeepStrictEqual(guard, guardFor(spec))) mismatches.push(`${route}: guarded ${JSON.stringify(guard)}, its entry says ${JSON.stringify(guardFor(spec))}`);
  }
  return mismatches;
}
