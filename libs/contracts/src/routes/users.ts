import { z } from 'zod';
import { ROLES } from '../auth/roles.js';
import { e164Phone, emailAddress } from '../http/contact-fields.js';
import { nullEnvelope, paginatedEnvelope, publicIdParams, successEnvelope } from '../http/envelopes.js';
import { listQueryShape } from '../http/list-query.js';
import { singleLine } from '../http/text-fields.js';
import { addressBody, profileSchema } from './profile.js';
import { routeManifest } from './route-spec.js';
import { endedSessionsSchema, sessionSchema } from './sessions.js';

const name = singleLine(1, 120);
const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

/** Contract §6 `POST /api/users`. */
export const createUserBody = z.strictObject({
  email: emailAddress,
  name,
  role,
  phone: e164Phone.optional(),
  address: addressBody.optional(),
});
export type CreateUserBody = z.output<typeof createUserBody>;

/** Contract §6 `PATCH /api/users/:publicId`; `phone: null` removes the phone, `address: null` the address. */
export const updateUserBody = z.strictObject({
  name: name.optional(),
  role: role.optional(),
  phone: e164Phone.nullable().optional(),
  banned: z.boolean().optional(),
  address: addressBody.nullable().optional(),
});
export type UpdateUserBody = z.output<typeof updateUserBody>;

/** Contract §5 list parameters for `GET /api/users`: rows by id, `search` over name and email. */
export const listUsersQuery = z.strictObject({
  ...listQueryShape({ defaultOrder: 'asc' }),
  search: singleLine(0, 255).optional(),
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

const TAG = 'users';
const ADDRESS = 'address ids are geography ids of reference-data; they must exist and nest, else 400 VALIDATION_FAILED.';

const ERASURE = [
  'Carries out the erasure a person asked for through the school (GDPR art. 17; contract §11). At once, in one transaction:',
  'the account, its password hash, sessions (access tokens 401, refresh 401 AUTH_REFRESH_TOKEN_INVALID, live streams end), devices, reset and',
  'invitation credentials and every unsent message for it are deleted, so its email and phone are free for a new account and',
  'logins, forgot, verification resend and reset for that email behave as for an unknown email. The other services follow through',
  'the identity.user_erased event within 60 s: every file it uploaded is deleted from storage; its feedback keeps category, subject,',
  'message and date but no longer names the account, and guest feedback that gave its email loses name, email and phone; its address',
  'no longer references geography. Kept: the feedback text without its author, and the account’s publicId in audit entries.',
  'One email, "Your account has been deleted", goes to the address the account had once the erasure is committed.',
  'The caller’s own account: 409 USER_SELF_ACTION (checked first); unknown or already erased: 404 USER_NOT_FOUND; as for a delete, the last active admin: 409 USER_LAST_ADMIN.',
].join(' ');

/** Contract §6 users admin: profiles carry a person's data, never cached (no-store). A publicId that is not a UUID names no user: 404 USER_NOT_FOUND. */
export const USER_ROUTES = routeManifest({
  list: {
    method: 'GET',
    path: '/api/users',
    auth: 'jwt',
    permissions: ['Users_READ'],
    noStore: true,
    tag: TAG,
    summary: 'List users (paginated; search over name and email)',
    query: listUsersQuery,
    response: { status: 200, description: 'Users', schema: paginatedEnvelope(profileSchema) },
  },
  create: {
    method: 'POST',
    path: '/api/users',
    auth: 'jwt',
    permissions: ['Users_CREATE'],
    noStore: true,
    tag: TAG,
    summary: 'Create an account and email its invitation (valid 7 days)',
    description: ADDRESS,
    body: { json: createUserBody, example: { email: 'parent@example.com', name: 'A Parent', role: 'customer', phone: '+9779812345678' } },
    response: { status: 201, description: 'User created', schema: successEnvelope(profileSchema) },
    errors: ['USER_EMAIL_TAKEN', 'USER_PHONE_TAKEN'],
  },
  get: {
    method: 'GET',
    path: '/api/users/:publicId',
    auth: 'jwt',
    permissions: ['Users_READ'],
    noStore: true,
    tag: TAG,
    summary: 'One user',
    params: publicIdParams,
    response: { status: 200, description: 'User', schema: successEnvelope(profileSchema) },
    errors: ['USER_NOT_FOUND'],
  },
  update: {
    method: 'PATCH',
    path: '/api/users/:publicId',
    auth: 'jwt',
    permissions: ['Users_UPDATE'],
    noStore: true,
    tag: TAG,
    summary: 'Update a user: name, role, phone, ban, address',
    description: `phone null removes the phone, address null the address. ${ADDRESS}`,
    params: publicIdParams,
    body: { json: updateUserBody, example: { banned: true } },
    response: { status: 200, description: 'User updated', schema: successEnvelope(profileSchema) },
    errors: ['USER_NOT_FOUND', 'USER_PHONE_TAKEN', 'USER_SELF_ACTION', 'USER_LAST_ADMIN'],
  },
  remove: {
    method: 'DELETE',
    path: '/api/users/:publicId',
    auth: 'jwt',
    permissions: ['Users_DELETE'],
    noStore: true,
    tag: TAG,
    summary: 'Soft-delete a user (revokes their sessions)',
    params: publicIdParams,
    response: { status: 200, description: 'User deleted', schema: nullEnvelope },
    errors: ['USER_NOT_FOUND', 'USER_SELF_ACTION', 'USER_LAST_ADMIN'],
  },
  erase: {
    method: 'POST',
    path: '/api/users/:publicId/erasure',
    auth: 'jwt',
    permissions: ['Users_DELETE'],
    tag: TAG,
    summary: 'Erase an account, live or soft-deleted (data-protection erasure; not the caller’s own)',
    description: ERASURE,
    params: publicIdParams,
    response: { status: 200, description: 'User erased', schema: nullEnvelope },
    errors: ['USER_NOT_FOUND', 'USER_SELF_ACTION', 'USER_LAST_ADMIN'],
  },
  sessions: {
    method: 'GET',
    path: '/api/users/:publicId/sessions',
    auth: 'jwt',
    permissions: ['Users_READ'],
    noStore: true,
    tag: TAG,
    summary: 'A user’s live sessions, newest first (a banned user has none)',
    params: publicIdParams,
    response: { status: 200, description: 'Sessions', schema: successEnvelope(z.array(sessionSchema)) },
    errors: ['USER_NOT_FOUND'],
  },
  endSessions: {
    method: 'DELETE',
    path: '/api/users/:publicId/sessions',
    auth: 'jwt',
    permissions: ['Users_UPDATE'],
    tag: TAG,
    summary: 'End every session of a user (the caller’s own too, on their own account)',
    params: publicIdParams,
    response: { status: 200, description: 'Sessions ended', schema: successEnvelope(endedSessionsSchema) },
    errors: ['USER_NOT_FOUND'],
  },
  resetMfa: {
    method: 'DELETE',
    path: '/api/users/:publicId/mfa',
    auth: 'jwt',
    permissions: ['Users_UPDATE'],
    tag: TAG,
    summary: 'Turn two-step sign-in off for an account, ending its sessions (the recovery path of contract §12)',
    params: publicIdParams,
    response: { status: 200, description: 'Two-step sign-in turned off', schema: nullEnvelope },
    errors: ['USER_NOT_FOUND', 'AUTH_MFA_NOT_ENABLED'],
  },
});
