import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import type { Permission } from '../permissions.js';
import type { Principal } from '../principal.js';
import type { Surface } from '../surfaces.js';
import { AuthGuard } from './auth.guard.js';
import { PRINCIPAL, REQUIRED_PERMISSIONS, REQUIRED_SURFACE, TOKEN_SURFACE } from './auth.metadata.js';

/** A valid, unrevoked access token is required (401 AUTH_UNAUTHENTICATED otherwise). */
export function Authenticated(): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_PERMISSIONS, []), UseGuards(AuthGuard));
}

/** A valid token whose role holds every one of `permissions` (403 PERMISSION_INSUFFICIENT otherwise). */
export function RequirePermissions(...permissions: Permission[]): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_PERMISSIONS, permissions), UseGuards(AuthGuard));
}

/**
 * Routes here that need a token (@Authenticated(), @RequirePermissions(), @RequireSurface()) accept
 * only tokens issued on `surface`: a token of the other surface does not authenticate on them, 401
 * AUTH_UNAUTHENTICATED (contract §4: `/api/auth/*` and `/api/mobile/auth/*`). Public routes stay
 * public, so it can mark a whole controller.
 */
export function TokenSurface(surface: Surface): ClassDecorator & MethodDecorator {
  return SetMetadata(TOKEN_SURFACE, surface);
}

/**
 * A valid token issued on `surface` (403 PERMISSION_INSUFFICIENT for a valid token of the other
 * surface): contract §4 for upload routes, admin-surface tokens on the administrator's and
 * mobile ones (customers) on the customer's. Adds to any other requirement of the route.
 */
export function RequireSurface(surface: Surface): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_SURFACE, surface), UseGuards(AuthGuard));
}

/** The caller the guard verified; only on routes under @Authenticated(), @RequirePermissions() or @RequireSurface(). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<{ [PRINCIPAL]?: Principal }>()[PRINCIPAL];
  if (!principal) throw new Error('@CurrentPrincipal() used on a route without @Authenticated(), @RequirePermissions() or @RequireSurface()');
  return principal;
});
