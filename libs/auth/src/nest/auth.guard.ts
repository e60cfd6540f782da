import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Authenticator } from '../authenticator.js';
import { assertPermissions, type Permission } from '../permissions.js';
import type { Principal } from '../principal.js';
import { PRINCIPAL, REQUIRED_PERMISSIONS } from './auth.metadata.js';

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  [PRINCIPAL]?: Principal;
}

/**
 * Verifies the bearer token itself (signature, claims, revocation) and checks permissions.
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
    const layers = [context.getClass(), context.getHandler()]
      .map((target) => this.reflector.get<Permission[] | undefined>(REQUIRED_PERMISSIONS, target))
      .filter((permissions) => permissions !== undefined);
    if (layers.length === 0) return true;
    const request = context.switchToHttp().getRequest<RequestLike>();
    const authorization = request.headers.authorization;
    const principal = await this.authenticator.authenticate(typeof authorization === 'string' ? authorization : undefined);
    assertPermissions(principal.role, layers.flat());
    request[PRINCIPAL] = principal;
    return true;
  }
}
