import { PERMISSIONS } from '@school/auth';
import { nullEnvelope, paginatedEnvelope, publicIdParams, type RouteDoc, successEnvelope } from '@school/openapi';
import { z } from 'zod';
import { profileSchema } from '../accounts/profile-docs.js';
import { endedSessionsSchema, sessionSchema } from '../sessions/session-docs.js';
import { listUsersQuery } from './dto/list-users.query.js';
import { createUserBody, updateUserBody } from './dto/user-body.dto.js';

const TAG = 'users';
const ADDRESS = 'address ids are geography ids of reference-data; they must exist and nest, else 400 VALIDATION_FAILED.';

/** Contract §6 users admin. */
export const USER_ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/users',
    tag: TAG,
    summary: 'List users (paginated; search over name and email)',
    query: listUsersQuery,
    response: { status: 200, description: 'Users', schema: paginatedEnvelope(profileSchema) },
    permissions: [PERMISSIONS.Users_READ],
  },
  {
    method: 'POST',
    path: '/api/users',
    tag: TAG,
    summary: 'Create an account and email its invitation (valid 7 days)',
    description: ADDRESS,
    body: { json: createUserBody, example: { email: 'parent@example.com', name: 'A Parent', role: 'customer', phone: '+9779812345678' } },
    response: { status: 201, description: 'User created', schema: successEnvelope(profileSchema) },
    errors: ['USER_EMAIL_TAKEN', 'USER_PHONE_TAKEN'],
    permissions: [PERMISSIONS.Users_CREATE],
  },
  {
    method: 'GET',
    path: '/api/users/{publicId}',
    tag: TAG,
    summary: 'One user',
    params: publicIdParams,
    response: { status: 200, description: 'User', schema: successEnvelope(profileSchema) },
    errors: ['USER_NOT_FOUND'],
    permissions: [PERMISSIONS.Users_READ],
  },
  {
    method: 'PATCH',
    path: '/api/users/{publicId}',
    tag: TAG,
    summary: 'Update a user: name, role, phone, ban, address',
    description: `phone null removes the phone, address null the address. ${ADDRESS}`,
    params: publicIdParams,
    body: { json: updateUserBody, example: { banned: true } },
    response: { status: 200, description: 'User updated', schema: successEnvelope(profileSchema) },
    errors: ['USER_NOT_FOUND', 'USER_PHONE_TAKEN', 'USER_SELF_ACTION', 'USER_LAST_ADMIN'],
    permissions: [PERMISSIONS.Users_UPDATE],
  },
  {
    method: 'DELETE',
    path: '/api/users/{publicId}',
    tag: TAG,
    summary: 'Soft-delete a user (revokes their sessions)',
    params: publicIdParams,
    response: { status: 200, description: 'User deleted', schema: nullEnvelope },
    errors: ['USER_NOT_FOUND', 'USER_SELF_ACTION', 'USER_LAST_ADMIN'],
    permissions: [PERMISSIONS.Users_DELETE],
  },
  {
    method: 'GET',
    path: '/api/users/{publicId}/sessions',
    tag: TAG,
    summary: 'A user’s live sessions, newest first (a banned user has none)',
    params: publicIdParams,
    response: { status: 200, description: 'Sessions', schema: successEnvelope(z.array(sessionSchema)) },
    errors: ['USER_NOT_FOUND'],
    permissions: [PERMISSIONS.Users_READ],
  },
  {
    method: 'DELETE',
    path: '/api/users/{publicId}/sessions',
    tag: TAG,
    summary: 'End every session of a user (the caller’s own too, on their own account)',
    params: publicIdParams,
    response: { status: 200, description: 'Sessions ended', schema: successEnvelope(endedSessionsSchema) },
    errors: ['USER_NOT_FOUND'],
    permissions: [PERMISSIONS.Users_UPDATE],
  },
];
