import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import type { Permission } from '../permissions.js';
import type { Principal } from '../principal.js';
import { AuthGuard } from './auth.guard.js';
import { PRINCIPAL, REQUIRED_PERMISSIONS } from './auth.metadata.js';

/** A valid, unrevoked access token is required (401 AUTH_UNAUTHENTICATED otherwise). */
export function Authenticated(): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_PERMISSIONS, []), UseGuards(AuthGuard));
}

/** A valid token whose role holds every one of `permissions` (403 PERMISSION_INSUFFICIENT otherwise). */
export function RequirePermissions(...permissions: Permission[]): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_PERMISSIONS, permissions), UseGuards(AuthGuard));
}

/** The caller the guard verified; only on routes under @Authenticated() or @RequirePermissions(). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<{ [PRINCIPAL]?: Principal }>()[PRINCIPAL];
  if (!principal) throw new Error('@CurrentPrincipal() used on a route without @Authenticated() or @RequirePermissions()');
  return principal;
});
