import { z } from 'zod';
import { ROLES } from '../auth/roles.js';
import { timestamp } from '../http/envelopes.js';
import { multiLineText } from '../http/text-fields.js';

/** Postgres `integer`, the type of the geography ids. */
const INT4_MAX = 2_147_483_647;

/**
 * Ward numbers stored on an address. A municipality's `wardCount` only narrows a ward picker (spec
 * §2.8) and never constrains the stored ward, so the bound is generous: no Nepali municipality has
 * more than 35 wards.
 */
export const WARD_MIN = 1;
export const WARD_MAX = 99;
export const STREET_MAX_LENGTH = 255;

const ID_MESSAGE = 'must be a positive integer';
const WARD_MESSAGE = `must be an integer from ${WARD_MIN} to ${WARD_MAX}`;

const geographyId = z.number({ message: ID_MESSAGE }).int(ID_MESSAGE).positive(ID_MESSAGE).max(INT4_MAX, ID_MESSAGE);

/**
 * A person's address (contract §6): the geography ids of reference-data, which must exist and nest
 * (asked of reference-data before the write), an optional ward and an optional multi-line street.
 */
export const addressBody = z.strictObject({
  provinceId: geographyId,
  districtId: geographyId,
  municipalityId: geographyId,
  ward: z.number({ message: WARD_MESSAGE }).int(WARD_MESSAGE).min(WARD_MIN, WARD_MESSAGE).max(WARD_MAX, WARD_MESSAGE).optional(),
  street: multiLineText(1, STREET_MAX_LENGTH).optional(),
});
export type AddressBody = z.output<typeof addressBody>;

/** A stored address; `ward` and `street` null when not stored. */
export const storedAddressSchema = z.object({
  provinceId: z.number().int(),
  districtId: z.number().int(),
  municipalityId: z.number().int(),
  ward: z.number().int().nullable(),
  street: z.string().nullable(),
});

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
  address: storedAddressSchema.nullable(),
  createdAt: timestamp,
});
export type ProfileDto = z.input<typeof profileSchema>;
