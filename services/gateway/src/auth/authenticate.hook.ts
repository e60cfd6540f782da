import type { FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '@school/auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `jwt` routes once the bearer token is verified and its session is not revoked. */
    principal: Principal | undefined;
  }
}

/** 401 (or 503 when the JWKS or Redis cannot answer) before the upstream is touched. */
export function authenticateHook(authenticator: Authenticator) {
  return async (request: FastifyRequest): Promise<void> => {
    request.principal = await authenticator.authenticate(request.headers.authorization);
  };
}
