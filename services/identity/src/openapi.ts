import { serviceDocument } from '@school/openapi';
import { PERMISSIONS_ROUTE, surfaceAuthRoutes } from './auth/auth.docs.js';
import { PHONE_VERIFICATION_ROUTES, publicCredentialRoutes } from './credentials/http/credentials.docs.js';
import { JWKS_ROUTE } from './keys/jwks.docs.js';
import { USER_ROUTES } from './users/users.docs.js';

const ADMIN = { prefix: '/api/auth', tag: 'admin-auth' };
const MOBILE = { prefix: '/api/mobile/auth', tag: 'mobile-auth' };

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export const IDENTITY_DOCUMENT = serviceDocument('identity', [
  ...surfaceAuthRoutes(ADMIN.prefix, ADMIN.tag, 'admin and staff'),
  PERMISSIONS_ROUTE,
  ...publicCredentialRoutes(ADMIN.prefix, ADMIN.tag),
  ...PHONE_VERIFICATION_ROUTES,
  ...surfaceAuthRoutes(MOBILE.prefix, MOBILE.tag, 'customers'),
  ...publicCredentialRoutes(MOBILE.prefix, MOBILE.tag),
  ...USER_ROUTES,
  JWKS_ROUTE,
]);
