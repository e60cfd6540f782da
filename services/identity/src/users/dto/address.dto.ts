import { multiLineText } from '@school/http';
import { z } from 'zod';

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

const geographyId = z.number({ message: 'must be a positive integer' }).int('must be a positive integer').positive('must be a positive integer').max(INT4_MAX, 'must be a positive integer');

/**
 * A person's address (contract §6): the geography ids of reference-data, which must exist and nest
 * (asked of reference-data before the write), an optional ward and an optional multi-line street.
 */
export const addressBody = z.strictObject({
  provinceId: geographyId,
  districtId: geographyId,
  municipalityId: geographyId,
  ward: z
    .number({ message: `must be an integer from ${WARD_MIN} to ${WARD_MAX}` })
    .int(`must be an integer from ${WARD_MIN} to ${WARD_MAX}`)
    .min(WARD_MIN, `must be an integer from ${WARD_MIN} to ${WARD_MAX}`)
    .max(WARD_MAX, `must be an integer from ${WARD_MIN} to ${WARD_MAX}`)
    .optional(),
  street: multiLineText(1, STREET_MAX_LENGTH).optional(),
});

export type AddressBody = z.output<typeof addressBody>;
