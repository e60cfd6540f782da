import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWSHeaderParameters,
  type FlattenedJWSInput,
  type JWTPayload,
  type CryptoKey,
} from 'jose';
import { AppError } from '@school/http';
import { ACCESS_TOKEN_ALGORITHMS, type Principal } from './principal.js';
import { isRole } from './roles.js';
import { isSurface, SURFACE_CLAIM } from './surfaces.js';

export interface JwtVerifierOptions {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** Accepted `alg` values; asymmetric only. Defaults to ACCESS_TOKEN_ALGORITHMS. */
  algorithms?: string[];
  /** Minimum time between two JWKS fetches triggered by an unknown `kid` (jose default 30 s). */
  jwksCooldownMs?: number;
  /** How long a fetched JWKS is used before it is fetched again (jose default 10 min). */
  jwksCacheMaxAgeMs?: number;
  /** Time limit of one JWKS fetch (jose default 5 s). */
  jwksTimeoutMs?: number;
}

const SYMMETRIC_OR_NONE = /^(none|HS\d+)$/i;
/** jose's own default for `cacheMaxAge`. */
const JOSE_JWKS_CACHE_MAX_AGE_MS = 600_000;

type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** The JWKS could not be fetched or read: a fault of ours or of identity, not of the caller's token. */
class JwksUnavailable extends Error {
  override readonly name = 'JwksUnavailable';
}

/**
 * Verifies access tokens against identity's JWKS (fetched once, cached, refetched when a token
 * names an unknown `kid`, at most once per cooldown).
 *
 * Failure mapping:
 * - anything wrong with the token (malformed, `alg` none or symmetric, bad signature, unknown key,
 *   wrong iss/aud, expired, missing or invalid sub/sid/role/srf) -> 401 AUTH_UNAUTHENTICATED;
 * - the JWKS cannot be fetched or parsed -> 503 SERVICE_UNAVAILABLE. A token we could not check
 *   is not proven invalid, and telling a client with a good token to log in again would be wrong;
 *   503 says "retry" and shows up as an outage in our own monitoring. While the JWKS is down, keys
 *   fetched earlier keep verifying (a stale cache beats refusing everyone); only tokens whose key
 *   we have never seen get the 503. Never a 500.
 */
export class JwtVerifier {
  private readonly issuer: string;
  private readonly audience: string;
  private readonly algorithms: string[];
  private readonly remote: ReturnType<typeof createRemoteJWKSet>;
  private readonly resolveKey: KeyResolver;
  /** How long a key stays trusted after a fetch of the JWKS showed it: past that it is fetched again. */
  readonly keyTrustMs: number;

  constructor(options: JwtVerifierOptions) {
    this.keyTrustMs = options.jwksCacheMaxAgeMs ?? JOSE_JWKS_CACHE_MAX_AGE_MS;
    this.issuer = options.issuer;
    this.audience = options.audience;
    this.algorithms = [...(options.algorithms ?? ACCESS_TOKEN_ALGORITHMS)];
    if (this.algorithms.length === 0 || this.algorithms.some((alg) => SYMMETRIC_OR_NONE.test(alg))) {
      throw new TypeError(`JwtVerifier accepts asymmetric algorithms only, got [${this.algorithms.join(', ')}]`);
    }
    this.remote = createRemoteJWKSet(new URL(options.jwksUrl), {
      ...(options.jwksCooldownMs !== undefined && { cooldownDuration: options.jwksCooldownMs }),
      ...(options.jwksCacheMaxAgeMs !== undefined && { cacheMaxAge: options.jwksCacheMaxAgeMs }),
      ...(options.jwksTimeoutMs !== undefined && { timeoutDuration: options.jwksTimeoutMs }),
    });
    this.resolveKey = (header, token) => this.keyFor(header, token);
  }

  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.resolveKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: this.algorithms,
        requiredClaims: ['exp', 'sub', 'sid', 'role', SURFACE_CLAIM],
      }));
    } catch (error) {
      if (error instanceof JwksUnavailable) throw new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error.cause });
      throw new AppError('AUTH_UNAUTHENTICATED', undefined, { cause: error });
    }
    const { sub, sid, role, exp, [SURFACE_CLAIM]: surface } = payload;
    if (typeof sub !== 'string' || sub === '' || typeof sid !== 'string' || sid === '' || !isRole(role) || !isSurface(surface)) {
      throw new AppError('AUTH_UNAUTHENTICATED');
    }
    // exp is present and numeric: jwtVerify required it and checked it against the clock.
    return { userId: sub, sessionId: sid, role, surface, expiresAt: new Date((exp as number) * 1000) };
  }

  private async keyFor(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> {
    try {
      return await this.remote(header, token);
    } catch (error) {
      if (isTokenProblem(error)) throw error;
      const stale = this.remote.jwks();
      if (stale) {
        const key = await fromStaleSet(stale, header, token);
        if (key) return key;
      }
      throw new JwksUnavailable('JWKS could not be fetched', { cause: error });
    }
  }
}

/** The JWKS was read but has no (single) key for this token: the token's fault. */
function isTokenProblem(error: unknown): boolean {
  return error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys || error instanceof errors.JOSENotSupported;
}

async function fromStaleSet(jwks: JSONWebKeySet, header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey | undefined> {
  try {
    return await createLocalJWKSet(jwks)(header, token);
  } catch {
    return undefined;
  }
}
