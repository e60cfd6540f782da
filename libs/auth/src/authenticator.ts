import { AppError } from '@school/http';
import { JwtVerifier } from './jwt-verifier.js';
import type { Principal } from './principal.js';
import { SessionRevocations } from './session-revocations.js';
import { VerifiedTokens } from './verified-tokens.js';

const BEARER = /^Bearer +([A-Za-z0-9\-_.+/=~]+) *$/i;

/** `Authorization: Bearer <token>` -> the caller, or 401 AUTH_UNAUTHENTICATED (503 when a dependency is down). */
export class Authenticator {
  constructor(
    private readonly verifier: JwtVerifier,
    private readonly revocations: SessionRevocations,
    private readonly verified = new VerifiedTokens(verifier.keyTrustMs),
  ) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const token = bearerToken(authorization);
    if (!token) throw new AppError('AUTH_UNAUTHENTICATED');
    let principal = this.verified.get(token);
    if (!principal) {
      principal = await this.verifier.verify(token);
      this.verified.set(token, principal);
    }
    if (await this.revocations.isRevoked(principal.sessionId)) throw new AppError('AUTH_UNAUTHENTICATED');
    return principal;
  }
}

export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization ? BEARER.exec(authorization)?.[1] : undefined;
}
