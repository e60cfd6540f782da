import type { RouteDoc } from '@school/openapi';
import { z } from 'zod';

/** RFC 7517 JWK Set: the public keys verifying access tokens. */
const jwkSet = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional() })),
});

export const JWKS_ROUTE: RouteDoc = {
  method: 'GET',
  path: '/.well-known/jwks.json',
  tag: 'keys',
  summary: 'Public keys of the access tokens (a plain JWK Set, not the envelope)',
  response: { status: 200, description: 'JWK Set', schema: jwkSet },
};
