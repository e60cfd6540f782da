import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { jwtEnv, parseConfig } from '@school/config';

/**
 * Access-token claims (`sub`, `sid`, `role`, `srf`, ...); loosely typed so tests can send wrong
 * ones. `srf` (the surface, contract §4) defaults to the one whose login issues tokens for the
 * role: `mobile` for customers, `admin` otherwise; pass `srf: undefined` to leave it out.
 */
export interface TestTokenClaims extends JWTPayload {
  sub?: string;
  sid?: unknown;
  role?: unknown;
  srf?: unknown;
}

/** The surface identity's login would have bound a token of `role` to (the SURFACES of @school/auth, which tests with this lib). */
export function surfaceForRole(role: unknown): 'admin' | 'mobile' {
  return role === 'customer' ? 'mobile' : 'admin';
}

export interface TestSignOptions {
  /** Seconds from now; negative makes an already expired token. Default 900. */
  expiresIn?: number;
  /** 'none' makes an unsigned token; 'HS256' signs with a random shared secret. Default 'EdDSA'. */
  alg?: 'EdDSA' | 'ES256' | 'none' | 'HS256';
  issuer?: string;
  audience?: string;
  /** Overrides the `kid` header. */
  kid?: string;
}

export interface TestIssuer {
  /** `http://127.0.0.1:<port>/.well-known/jwks.json` */
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** `kid` of the current EdDSA key. */
  readonly kid: string;
  /** How many times the JWKS was requested (to observe caching). */
  readonly jwksRequests: number;
  sign(claims: TestTokenClaims, options?: TestSignOptions): Promise<string>;
  /** A new current EdDSA key; the previous one stays published unless `retirePrevious`. Returns the new kid. */
  rotate(options?: { retirePrevious?: boolean }): Promise<string>;
  /** While false, the JWKS endpoint answers 503. */
  setAvailable(available: boolean): void;
  close(): Promise<void>;
}

interface IssuerKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(alg: 'EdDSA' | 'ES256'): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg, use: 'sig' } };
}

function unsignedToken(payload: JWTPayload, kid: string | undefined): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'JWT', ...(kid && { kid }) })}.${encode(payload)}.`;
}

/**
 * A stand-in for identity's token issuing: a JWKS on a local port and a signer that makes valid
 * access tokens and the bad ones tests need. Issuer and audience default to the jwtEnv defaults.
 */
export async function createTestIssuer(options: { issuer?: string; audience?: string } = {}): Promise<TestIssuer> {
  const defaults = parseConfig(jwtEnv, {});
  const issuer = options.issuer ?? defaults.JWT_ISSUER;
  const audience = options.audience ?? defaults.JWT_AUDIENCE;
  const hmacSecret = randomBytes(32);
  const es256 = await newKey('ES256');
  let current = await newKey('EdDSA');
  let published: IssuerKey[] = [current, es256];
  let available = true;
  let jwksRequests = 0;

  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    jwksRequests += 1;
    if (!available) {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: published.map((key) => key.publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    issuer,
    audience,
    get kid() {
      return current.kid;
    },
    get jwksRequests() {
      return jwksRequests;
    },
    async sign(claims, signOptions = {}) {
      const alg = signOptions.alg ?? 'EdDSA';
      const now = Math.floor(Date.now() / 1000);
      const payload: JWTPayload = {
        iss: signOptions.issuer ?? issuer,
        aud: signOptions.audience ?? audience,
        iat: now,
        exp: now + (signOptions.expiresIn ?? 900),
        srf: surfaceForRole(claims.role),
        ...claims,
      };
      if (payload.srf === undefined) delete payload.srf;
      if (alg === 'none') return unsignedToken(payload, signOptions.kid ?? current.kid);
      const key = alg === 'ES256' ? es256 : current;
      const jwt = new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT', kid: signOptions.kid ?? key.kid });
      return alg === 'HS256' ? jwt.sign(hmacSecret) : jwt.sign(key.privateKey);
    },
    async rotate({ retirePrevious = false } = {}) {
      const previous = current;
      current = await newKey('EdDSA');
      published = [current, ...published.filter((key) => !(retirePrevious && key === previous))];
      return current.kid;
    },
    setAvailable(value) {
      available = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
