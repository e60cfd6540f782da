import { z } from 'zod';
import { routeManifest } from './route-spec.js';

/** RFC 7517 JWK Set: the public keys verifying access tokens. */
const jwkSet = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional() })),
});

/** Contract §4: the public keys of the access tokens. */
export const KEY_ROUTES = routeManifest({
  jwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    auth: 'public',
    tag: 'keys',
    summary: 'Public keys of the access tokens (a plain JWK Set, not the envelope)',
    response: { status: 200, description: 'JWK Set', schema: jwkSet },
  },
});
