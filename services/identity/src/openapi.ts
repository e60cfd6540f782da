import { type RouteDoc, serviceDocument } from '@school/openapi';
import { PERMISSIONS_ROUTE, surfaceAuthRoutes } from './auth/auth.docs.js';
import { PHONE_VERIFICATION_ROUTES, publicCredentialRoutes } from './auth/credentials.docs.js';
import { JWKS_ROUTE } from './keys/jwks.docs.js';
import { USER_ROUTES } from './users/users.docs.js';

const ADMIN = { prefix: '/api/auth', tag: 'admin-auth' } as const;
const MOBILE = { prefix: '/api/mobile/auth', tag: 'mobile-auth' } as const;

/** Routes bound to one login surface (contract §4). */
const onSurface = (tokenSurface: 'admin' | 'mobile', routes: RouteDoc[]): RouteDoc[] => routes.map((route) => ({ ...route, tokenSurface }));

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export const IDENTITY_DOCUMENT = serviceDocument('identity', [
  ...onSurface('admin', [
    ...surfaceAuthRoutes(ADMIN.prefix, ADMIN.tag, 'admin and staff'),
    PERMISSIONS_ROUTE,
    ...publicCredentialRoutes(ADMIN.prefix, ADMIN.tag),
    ...PHONE_VERIFICATION_ROUTES,
  ]),
  ...onSurface('mobile', [...surfaceAuthRoutes(MOBILE.prefix, MOBILE.tag, 'customers'), ...publicCredentialRoutes(MOBILE.prefix, MOBILE.tag)]),
  ...USER_ROUTES,
  JWKS_ROUTE,
]);
