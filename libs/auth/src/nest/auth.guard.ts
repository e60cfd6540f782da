import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '@school/http';
import { Authenticator } from '../authenticator.js';
import { assertPermissions, type Permission } from '../permissions.js';
import type { Principal } from '../principal.js';
import type { Surface } from '../surfaces.js';
import { PRINCIPAL, REQUIRED_PERMISSIONS, REQUIRED_SURFACE, TOKEN_SURFACE } from './auth.metadata.js';

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  [PRINCIPAL]?: Principal;
}

/**
 * Verifies the bearer token itself (signature, claims, revocation), then, in this order, the
 * token's surface (401), the permissions (403) and the surface the route requires (403).
 * Identity headers set by the gateway or anyone else are never trusted.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Requirements of the controller and of the handler add up; neither can loosen the other.
    const permissions = this.layers<Permission[]>(REQUIRED_PERMISSIONS, context);
    const requiredSurfaces = this.layers<Surface>(REQUIRED_SURFACE, context);
    if (permissions.length === 0 && requiredSurfaces.length === 0) return true;
    const request = context.switchToHttp().getRequest<RequestLike>();
    // Several decorators may each have added this guard; the token is verified once per request.
    const principal = request[PRINCIPAL] ?? (await this.authenticate(request));
    if (this.layers<Surface>(TOKEN_SURFACE, context).some((surface) => surface !== principal.surface)) {
      throw new AppError('AUTH_UNAUTHENTICATED');
    }
    assertPermissions(principal.role, permissions.flat());
    if (requiredSurfaces.some((surface) => surface !== principal.surface)) throw new AppError('PERMISSION_INSUFFICIENT');
    request[PRINCIPAL] = principal;
    return true;
  }

  private authenticate(request: RequestLike): Promise<Principal> {
    const authorization = request.headers.authorization;
    return this.authenticator.authenticate(typeof authorization === 'string' ? authorization : undefined);
  }

  private layers<T>(key: symbol, context: ExecutionContext): T[] {
    return [context.getClass(), context.getHandler()].map((target) => this.reflector.get<T | undefined>(key, target)).filter((value) => value !== undefined);
  }
}
