import { e164Phone, emailAddress, multiLineText, singleLine } from '@school/http';
import { z } from 'zod';
import { geographyId } from '../../geography/dto/geography-fields.js';

/** Bounds of the school profile (contract §6 leaves them to us). */
export const SCHOOL_PROFILE_LIMITS = { name: 120, wardMin: 1, wardMax: 35, street: 255 } as const;

const ward = z
  .number({ message: 'must be an integer' })
  .int('must be an integer')
  .min(SCHOOL_PROFILE_LIMITS.wardMin, `must be at least ${SCHOOL_PROFILE_LIMITS.wardMin}`)
  .max(SCHOOL_PROFILE_LIMITS.wardMax, `must be at most ${SCHOOL_PROFILE_LIMITS.wardMax}`);

/**
 * Contract §6 `PUT /api/school-profile`: the whole profile. An optional field left out (or null)
 * is stored as unset, as a PUT replaces the record.
 */
export const putSchoolProfileBody = z.strictObject({
  name: singleLine(1, SCHOOL_PROFILE_LIMITS.name),
  provinceId: geographyId,
  districtId: geographyId,
  municipalityId: geographyId,
  ward: ward.nullable().optional(),
  street: multiLineText(1, SCHOOL_PROFILE_LIMITS.street).nullable().optional(),
  phone: e164Phone.nullable().optional(),
  email: emailAddress.nullable().optional(),
});

export type PutSchoolProfileBody = z.output<typeof putSchoolProfileBody>;
