import { PERMISSION_NAMES, ROLES } from '@school/auth';
import { type ApiTag, nullEnvelope, type RouteDoc, successEnvelope, timestamp } from '@school/openapi';
import { z } from 'zod';
import { endedSessionsSchema, ownSessionSchema } from '../sessions/session-docs.js';
import { profileSchema } from '../accounts/profile-docs.js';
import { loginBody } from './dto/login.dto.js';
import { refreshBody } from './dto/refresh.dto.js';
import { setPasswordBody } from './dto/set-password.dto.js';

/** Contract §4: the answer of login and refresh. */
const tokenResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().describe('seconds the access token lives'),
  accessTokenExpiresAt: timestamp,
  refreshTokenExpiresAt: timestamp,
  user: profileSchema,
});

const loginExample = {
  email: 'admin@example.com',
  password: 'Admin123!',
  deviceInfo: { deviceId: 'device-1', deviceType: 'web', deviceName: 'Backoffice' },
};

/** The routes both surfaces serve (spec §4.1, §4.2) under `prefix`, tagged with the surface. */
export function surfaceAuthRoutes(prefix: string, tag: ApiTag, who: string): RouteDoc[] {
  return [
    {
      method: 'POST',
      path: `${prefix}/login/email`,
      tag,
      summary: `Log in with email and password (${who})`,
      body: { json: loginBody, example: loginExample },
      response: { status: 200, description: 'Token pair and profile', schema: successEnvelope(tokenResponse) },
      errors: ['AUTH_INVALID_CREDENTIALS', 'AUTH_ACCOUNT_BANNED'],
    },
    {
      method: 'POST',
      path: `${prefix}/refresh`,
      tag,
      summary: 'Rotate the refresh and access tokens',
      body: { json: refreshBody },
      response: { status: 200, description: 'New token pair and profile', schema: successEnvelope(tokenResponse) },
      errors: ['AUTH_REFRESH_TOKEN_INVALID'],
    },
    {
      method: 'GET',
      path: `${prefix}/me`,
      tag,
      summary: 'The caller’s profile, with hasPassword',
      response: { status: 200, description: 'Profile', schema: successEnvelope(profileSchema) },
    },
    {
      method: 'POST',
      path: `${prefix}/password/set`,
      tag,
      summary: 'Set or change the caller’s password (5 per 15 minutes)',
      description:
        'currentPassword is required when the account already has a password. Setting it ends every other session of ' +
        'the caller (contract §4): their access tokens are refused at once and their refresh tokens no longer refresh; the calling session stays, and the holder is told by email.',
      body: { json: setPasswordBody, example: { currentPassword: 'Admin123!', newPassword: 'N3w-Passw0rd!' } },
      response: { status: 200, description: 'Password set', schema: nullEnvelope },
      errors: ['AUTH_CURRENT_PASSWORD_REQUIRED', 'AUTH_INVALID_CREDENTIALS'],
    },
    {
      method: 'DELETE',
      path: `${prefix}/logout`,
      tag,
      summary: 'End the current session',
      response: { status: 200, description: 'Logged out', schema: nullEnvelope },
    },
    {
      method: 'GET',
      path: `${prefix}/sessions`,
      tag,
      summary: 'The caller’s live sessions, newest first',
      response: { status: 200, description: 'Sessions', schema: successEnvelope(z.array(ownSessionSchema)) },
    },
    {
      method: 'DELETE',
      path: `${prefix}/sessions/{id}`,
      tag,
      summary: 'End one of the caller’s sessions (the current one: a logout)',
      description: 'An unknown id, an ended session or another person’s session is 404 SESSION_NOT_FOUND.',
      params: z.object({ id: z.string().describe('the session id') }),
      response: { status: 200, description: 'Session ended', schema: nullEnvelope },
      errors: ['SESSION_NOT_FOUND'],
    },
    {
      method: 'DELETE',
      path: `${prefix}/sessions`,
      tag,
      summary: 'End every other session of the caller',
      response: { status: 200, description: 'Other sessions ended', schema: successEnvelope(endedSessionsSchema) },
    },
  ];
}

/** Spec §4.1: the administrator surface's extra route. */
export const PERMISSIONS_ROUTE: RouteDoc = {
  method: 'GET',
  path: '/api/auth/permissions',
  tag: 'admin-auth',
  summary: 'The caller’s role and permissions',
  response: {
    status: 200,
    description: 'Role and permissions',
    schema: successEnvelope(z.object({ role: z.enum(ROLES), permissions: z.array(z.enum(PERMISSION_NAMES)) })),
  },
};
