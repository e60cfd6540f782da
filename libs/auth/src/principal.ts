import type { Role } from './roles.js';
import type { Surface } from './surfaces.js';

/** Who is calling, as proven by a verified, unrevoked access token. */
export interface Principal {
  /** `sub`: the user's publicId. */
  userId: string;
  /** `sid`: the login session the token belongs to. */
  sessionId: string;
  role: Role;
  /** `srf`: the surface whose login issued the token. */
  surface: Surface;
  /** `exp`: when the access token stops being accepted. */
  expiresAt: Date;
}

/** The claims identity puts in an access token (contract §4), besides iss, aud, iat and exp. */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  role: Role;
  /** SURFACE_CLAIM */
  srf: Surface;
  /** RFC 8176 authentication methods of the session's login (contract §12): `pwd`, and `otp` after two-step sign-in. */
  amr: readonly AuthenticationMethod[];
}

/** The RFC 8176 values a login can prove: a password, and a one-time code (TOTP or recovery code). */
export const AUTHENTICATION_METHODS = ['pwd', 'otp'] as const;
export type AuthenticationMethod = (typeof AUTHENTICATION_METHODS)[number];

/** Asymmetric algorithms only (contract §4): `none` and HMAC can never verify. */
export const ACCESS_TOKEN_ALGORITHMS = ['EdDSA', 'ES256'] as const;

export type AccessTokenAlgorithm = (typeof ACCESS_TOKEN_ALGORITHMS)[number];
