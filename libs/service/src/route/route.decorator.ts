import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata } from '@nestjs/common';
import { RequirePermissions, RequireSurface, TokenSurface } from '@school/auth/nest';
import type { RouteSpec } from '@school/contracts';

/** Metadata: the manifest entry a handler serves (see @Route()). */
export const ROUTE_SPEC = Symbol('ROUTE_SPEC');

function guardOf(spec: RouteSpec): MethodDecorator[] {
  if (spec.auth === 'public') {
    if (spec.permissions?.length || spec.surface?.check === 'caller') throw new Error(`${spec.method} ${spec.path} is public but requires a permission or a caller surface`);
    return [];
  }
  const guard = [RequirePermissions(...(spec.permissions ?? []))];
  if (spec.surface?.check === 'token') guard.push(TokenSurface(spec.surface.surface));
  if (spec.surface?.check === 'caller') guard.push(RequireSurface(spec.surface.surface));
  return guard;
}

/**
 * `@Route(FEEDBACK_ROUTES.submitAsGuest)`: a handler serves one manifest entry, which gives it its
 * method and path, its success status, its guard (token, permissions, surface) and the schemas
 * @RouteBody() and @RouteQuery() validate with. The controller itself is a bare `@Controller()`.
 */
export function Route(spec: RouteSpec): MethodDecorator {
  return applyDecorators(SetMetadata(ROUTE_SPEC, spec), RequestMapping({ path: spec.path, method: RequestMethod[spec.method] }), HttpCode(spec.response.status), ...guardOf(spec));
}
