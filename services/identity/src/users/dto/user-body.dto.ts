import { ROLES } from '@school/auth';
import { e164Phone, emailAddress, singleLine } from '@school/http';
import { z } from 'zod';
import { addressBody } from '../../accounts/dto/address.dto.js';

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
