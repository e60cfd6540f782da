import { ROLES } from '@school/auth';
import { singleLine } from '@school/http';
import { z } from 'zod';
import { e164Phone, emailAddress } from './contact-fields.js';

const name = singleLine(1, 120);
const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

/** Contract §6 `POST /api/users`; `address` arrives with the reference-data work. */
export const createUserBody = z.strictObject({
  email: emailAddress,
  name,
  role,
  phone: e164Phone.optional(),
});

export type CreateUserBody = z.output<typeof createUserBody>;

/** Contract §6 `PATCH /api/users/:publicId`; `phone: null` removes the phone. */
export const updateUserBody = z.strictObject({
  name: name.optional(),
  role: role.optional(),
  phone: e164Phone.nullable().optional(),
  banned: z.boolean().optional(),
});

export type UpdateUserBody = z.output<typeof updateUserBody>;
