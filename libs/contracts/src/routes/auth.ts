import { z } from 'zod';
import { PERMISSION_NAMES } from '../auth/permissions.js';
import { ROLES } from '../auth/roles.js';
import type { Surface } from '../auth/surfaces.js';
import { emailAddress } from '../http/contact-fields.js';
import { nullEnvelope, successEnvelope, timestamp } from '../http/envelopes.js';
import { singleLine, singleLineRaw } from '../http/text-fields.js';
import { profileSchema } from './profile.js';
import { type RouteSpec, routeManifest } from './route-spec.js';
import { endedSessionsSchema, ownSessionSchema } from './sessions.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;

/**
 * The strong-password rule of contract §4: 8-32 characters with a lower-case letter, an
 * upper-case letter, a digit and a symbol. Every new password goes through it (reset, set
 * password, user:create, bootstrap admin); identity adds the breached-password check to those a person chooses.
 */
export const strongPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .regex(/[a-z]/, 'must contain a lower-case letter')
  .regex(/[A-Z]/, 'must contain an upper-case letter')
  .regex(/[0-9]/, 'must contain a digit')
  .regex(/[^A-Za-z0-9]/, 'must contain a symbol');

/**
 * Longest password accepted at login. New passwords are capped at 32 by the strong-password
 * rule; login accepts more so a future policy change does not lock anyone out, yet bounds the work.
 */
export const LOGIN_PASSWORD_MAX_LENGTH = 128;

/** Spec §2.1. deviceInfo is optional; when sent, each of its fields is optional too but never blank, and single-line (contract §3). */
export const loginBody = z.strictObject({
  email: emailAddress,
  password: z.string().min(1, 'is required').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`),
  deviceInfo: z
    .strictObject({
      deviceId: singleLine(1, 255).optional(),
      deviceType: singleLine(1, 64).optional(),
      deviceName: singleLine(1, 255).optional(),
    })
    .optional(),
});
export type LoginBody = z.output<typeof loginBody>;

/** Contract §4: `{ refreshToken }`. Issued tokens are 43 base64url characters; anything else cannot match. */
export const refreshBody = z.strictObject({
  refreshToken: singleLineRaw.min(1, 'is required').max(512, 'must be at most 512 characters'),
});
export type RefreshBody = z.output<typeof refreshBody>;

/** Spec §2.3: currentPassword is required only when the account already has a password. */
export const setPasswordBody = z.strictObject({
  newPassword: strongPassword,
  currentPassword: z.string().min(1, 'must not be empty').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`).optional(),
});
export type SetPasswordBody = z.output<typeof setPasswordBody>;

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
export type TokenResponseDto = z.input<typeof tokenResponse>;

/** Contract §12: the password step of an account with two-step sign-in on answers this instead of tokens. */
const mfaChallengeResponse = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string().describe('single use, for POST /api/auth/login/mfa'),
  mfaTokenExpiresAt: timestamp.describe('5 minutes after the password step'),
});
export type MfaChallengeDto = z.input<typeof mfaChallengeResponse>;

/** The admin login's answer: tokens, or the second step's token when two-step sign-in is on (contract §12). */
const adminLoginResponse = z.union([tokenResponse, mfaChallengeResponse]);
export type AdminLoginResponseDto = z.input<typeof adminLoginResponse>;

/** A TOTP code (six digits) or a recovery code; single-line, bounded (contract §3). */
const mfaCode = singleLine(1, 64).describe('the current six-digit code of the authenticator app, or (at login) one recovery code');

export const mfaCodeBody = z.strictObject({ code: mfaCode });
export type MfaCodeBody = z.output<typeof mfaCodeBody>;

export const loginMfaBody = z.strictObject({
  mfaToken: singleLineRaw.min(1, 'is required').max(512, 'must be at most 512 characters'),
  code: mfaCode,
});
export type LoginMfaBody = z.output<typeof loginMfaBody>;

export const disableMfaBody = z.strictObject({
  password: z.string().min(1, 'is required').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`),
  code: mfaCode,
});
export type DisableMfaBody = z.output<typeof disableMfaBody>;

const mfaStatusResponse = z.object({ totp: z.boolean(), recoveryCodesLeft: z.number().int() });
export type MfaStatusDto = z.input<typeof mfaStatusResponse>;

const mfaEnrolmentResponse = z.object({
  secret: z.string().describe('base32, 160 bits'),
  otpauthUrl: z.string().describe('otpauth://totp/<issuer>:<email>?secret=...&issuer=... (the QR code an authenticator app scans)'),
});
export type MfaEnrolmentDto = z.input<typeof mfaEnrolmentResponse>;

const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()).describe('ten single-use codes, shown this once') });
export type RecoveryCodesDto = z.input<typeof recoveryCodesResponse>;

const permissionsResponse = z.object({ role: z.enum(ROLES), permissions: z.array(z.enum(PERMISSION_NAMES)) });
export type PermissionsDto = z.input<typeof permissionsResponse>;

const loginExample = {
  email: 'admin@example.com',
  password: 'Admin123!',
  deviceInfo: { deviceId: 'device-1', deviceType: 'web', deviceName: 'Backoffice' },
};

interface SurfaceText {
  prefix: string;
  tag: 'admin-auth' | 'mobile-auth';
  who: string;
}

/**
 * The authentication routes both surfaces serve (spec §4.1, §4.2) under their prefix: a token of
 * the other surface does not authenticate on them (401, contract §4), and login issues the surface's tokens.
 */
function surfaceAuthRoutes<Login extends z.ZodType>(surface: Surface, { prefix, tag, who }: SurfaceText, loginResponse: Login) {
  const common = { surface: { surface, check: 'token' }, tag } as const;
  return routeManifest({
    login: {
      ...common,
      method: 'POST',
      path: `${prefix}/login/email`,
      auth: 'public',
      /** Login counts per ip and email, and per ip whatever the email (contract §4). */
      throttles: ['login', 'loginPerIp'],
      serviceLimits: ['loginBackoff'],
      noStore: true,
      summary: `Log in with email and password (${who})`,
      body: { json: loginBody, example: loginExample },
      response: { status: 200, description: 'Token pair and profile', schema: successEnvelope(loginResponse) },
      errors: ['AUTH_INVALID_CREDENTIALS', 'AUTH_ACCOUNT_BANNED'],
    },
    refresh: {
      ...common,
      method: 'POST',
      path: `${prefix}/refresh`,
      auth: 'public',
      noStore: true,
      summary: 'Rotate the refresh and access tokens',
      body: { json: refreshBody },
      response: { status: 200, description: 'New token pair and profile', schema: successEnvelope(tokenResponse) },
      errors: ['AUTH_REFRESH_TOKEN_INVALID'],
    },
    me: {
      ...common,
      method: 'GET',
      path: `${prefix}/me`,
      auth: 'jwt',
      noStore: true,
      summary: 'The caller’s profile, with hasPassword',
      response: { status: 200, description: 'Profile', schema: successEnvelope(profileSchema) },
    },
    setPassword: {
      ...common,
      method: 'POST',
      path: `${prefix}/password/set`,
      auth: 'jwt',
      throttles: ['setPassword'],
      summary: 'Set or change the caller’s password (5 per 15 minutes)',
      description:
        'currentPassword is required when the account already has a password. Setting it ends every other session of ' +
        'the caller (contract §4): their access tokens are refused at once and their refresh tokens no longer refresh; the calling session stays, and the holder is told by email.',
      body: { json: setPasswordBody, example: { currentPassword: 'Admin123!', newPassword: 'N3w-Passw0rd!' } },
      response: { status: 200, description: 'Password set', schema: nullEnvelope },
      errors: ['AUTH_CURRENT_PASSWORD_REQUIRED', 'AUTH_INVALID_CREDENTIALS'],
    },
    logout: {
      ...common,
      method: 'DELETE',
      path: `${prefix}/logout`,
      auth: 'jwt',
      summary: 'End the current session',
      response: { status: 200, description: 'Logged out', schema: nullEnvelope },
    },
    sessions: {
      ...common,
      method: 'GET',
      path: `${prefix}/sessions`,
      auth: 'jwt',
      noStore: true,
      summary: 'The caller’s live sessions, newest first',
      response: { status: 200, description: 'Sessions', schema: successEnvelope(z.array(ownSessionSchema)) },
    },
    endSession: {
      ...common,
      method: 'DELETE',
      path: `${prefix}/sessions/:id`,
      auth: 'jwt',
      summary: 'End one of the caller’s sessions (the current one: a logout)',
      description: 'An unknown id, an ended session or another person’s session is 404 SESSION_NOT_FOUND.',
      params: z.object({ id: z.string().describe('the session id') }),
      response: { status: 200, description: 'Session ended', schema: nullEnvelope },
      errors: ['SESSION_NOT_FOUND'],
    },
    endOtherSessions: {
      ...common,
      method: 'DELETE',
      path: `${prefix}/sessions`,
      auth: 'jwt',
      summary: 'End every other session of the caller',
      response: { status: 200, description: 'Other sessions ended', schema: successEnvelope(endedSessionsSchema) },
    },
  });
}

const admin = surfaceAuthRoutes('admin', { prefix: '/api/auth', tag: 'admin-auth', who: 'admin and staff' }, adminLoginResponse);
const adminJwt = { auth: 'jwt', surface: { surface: 'admin', check: 'token' }, tag: 'admin-auth' } as const;

/** Spec §4.1, the administrator surface (admin and staff): the shared routes and the caller's permissions. */
export const ADMIN_AUTH_ROUTES = routeManifest({
  ...admin,
  permissions: {
    method: 'GET',
    path: '/api/auth/permissions',
    auth: 'jwt',
    surface: { surface: 'admin', check: 'token' },
    noStore: true,
    tag: 'admin-auth',
    summary: 'The caller’s role and permissions',
    response: { status: 200, description: 'Role and permissions', schema: successEnvelope(permissionsResponse) },
  },
  loginMfa: {
    method: 'POST',
    path: '/api/auth/login/mfa',
    auth: 'public',
    surface: { surface: 'admin', check: 'token' },
    tag: 'admin-auth',
    /** The password step's buckets (contract §12): ip and the mfaToken's email, and ip. */
    throttles: ['login', 'loginPerIp'],
    serviceLimits: ['loginBackoff'],
    noStore: true,
    summary: 'Second step of a two-step sign-in: the mfaToken of the password step and a code',
    description:
      'The code is the current six-digit TOTP (the step before and after are accepted; a step at or before the last accepted one is refused) ' +
      'or one unused recovery code. Answers like login. The fifth wrong code retires the mfaToken; wrong codes count toward the email’s login back-off.',
    body: { json: loginMfaBody, example: { mfaToken: '…', code: '123456' } },
    response: { status: 200, description: 'Token pair and profile', schema: successEnvelope(tokenResponse) },
    errors: [{ code: 'AUTH_MFA_CODE_INVALID', status: 401 }, 'AUTH_MFA_TOKEN_INVALID', 'AUTH_ACCOUNT_BANNED'],
  },
  mfaStatus: {
    ...adminJwt,
    method: 'GET',
    path: '/api/auth/mfa',
    noStore: true,
    summary: 'Whether two-step sign-in is on, and how many recovery codes are left',
    response: { status: 200, description: 'Two-step sign-in status', schema: successEnvelope(mfaStatusResponse) },
  },
  mfaStart: {
    ...adminJwt,
    method: 'POST',
    path: '/api/auth/mfa/totp',
    noStore: true,
    summary: 'Start enrolling an authenticator app (nothing changes until it is confirmed)',
    description: 'A new start replaces an unconfirmed one.',
    response: { status: 200, description: 'The pending secret and its otpauth URL', schema: successEnvelope(mfaEnrolmentResponse) },
    errors: ['AUTH_MFA_ALREADY_ENABLED'],
  },
  mfaConfirm: {
    ...adminJwt,
    method: 'POST',
    path: '/api/auth/mfa/totp/confirm',
    noStore: true,
    summary: 'Confirm enrolment with a code of the pending secret: two-step sign-in is on',
    description: 'Answers ten single-use recovery codes, shown this once. Every other session of the caller is ended.',
    body: { json: mfaCodeBody, example: { code: '123456' } },
    response: { status: 200, description: 'Recovery codes', schema: successEnvelope(recoveryCodesResponse) },
    errors: ['AUTH_MFA_CODE_INVALID', 'AUTH_MFA_ALREADY_ENABLED'],
  },
  mfaRecoveryCodes: {
    ...adminJwt,
    method: 'POST',
    path: '/api/auth/mfa/recovery-codes',
    noStore: true,
    summary: 'Replace all ten recovery codes (a current code of the authenticator app required)',
    body: { json: mfaCodeBody, example: { code: '123456' } },
    response: { status: 200, description: 'Recovery codes', schema: successEnvelope(recoveryCodesResponse) },
    errors: ['AUTH_MFA_CODE_INVALID', 'AUTH_MFA_NOT_ENABLED'],
  },
  mfaDisable: {
    ...adminJwt,
    method: 'DELETE',
    path: '/api/auth/mfa/totp',
    summary: 'Turn two-step sign-in off (password and a current code required)',
    description: 'The holder is told by email.',
    body: { json: disableMfaBody, example: { password: 'Admin123!', code: '123456' } },
    response: { status: 200, description: 'Two-step sign-in turned off', schema: nullEnvelope },
    errors: ['AUTH_INVALID_CREDENTIALS', 'AUTH_MFA_CODE_INVALID', 'AUTH_MFA_NOT_ENABLED'],
  },
} satisfies Record<string, RouteSpec>);

/** Spec §4.2, the customer mobile surface (customers only). */
export const MOBILE_AUTH_ROUTES = surfaceAuthRoutes('mobile', { prefix: '/api/mobile/auth', tag: 'mobile-auth', who: 'customers' }, tokenResponse);

/** The routes both surfaces share, as each surface's controller serves them. */
export type SurfaceAuthRoutes = ReturnType<typeof surfaceAuthRoutes>;
