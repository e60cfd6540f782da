import { ROLES } from '@school/auth';
import { timestamp } from '@school/openapi';
import { z } from 'zod';

/** The profile of contract §4 (`me`, login, refresh, users admin). */
export const profileSchema = z.object({
  publicId: z.uuid(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  hasPassword: z.boolean().describe('false: no password yet (show "add password"); true: one is set'),
  address: z
    .object({
      provinceId: z.number().int(),
      districtId: z.number().int(),
      municipalityId: z.number().int(),
      ward: z.number().int().nullable(),
      street: z.string().nullable(),
    })
    .nullable(),
  createdAt: timestamp,
});
