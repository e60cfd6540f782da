import { z } from 'zod';
import { e164Phone, emailAddress } from '../http/contact-fields.js';
import { successEnvelope, timestamp } from '../http/envelopes.js';
import { multiLineText, singleLine } from '../http/text-fields.js';
import { geographyId } from './geography.js';
import { routeManifest } from './route-spec.js';

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

/** Contract §6 school profile as the routes answer it. */
const schoolProfile = z.object({
  name: z.string(),
  provinceId: z.number().int(),
  districtId: z.number().int(),
  municipalityId: z.number().int(),
  ward: z.number().int().nullable(),
  street: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type SchoolProfileDto = z.input<typeof schoolProfile>;

/** Contract §6 school profile: GET answers `data: null` before the first PUT; PUT answers 200. */
export const SCHOOL_PROFILE_ROUTES = routeManifest({
  get: {
    method: 'GET',
    path: '/api/school-profile',
    auth: 'jwt',
    permissions: ['SchoolProfile_READ'],
    tag: 'school-profile',
    summary: 'The school profile (data null before the first PUT)',
    response: { status: 200, description: 'School profile', schema: successEnvelope(schoolProfile.nullable()) },
  },
  put: {
    method: 'PUT',
    path: '/api/school-profile',
    auth: 'jwt',
    permissions: ['SchoolProfile_UPDATE'],
    tag: 'school-profile',
    summary: 'Replace the school profile',
    description: 'provinceId, districtId and municipalityId must exist and nest, else 400 VALIDATION_FAILED.',
    body: { json: putSchoolProfileBody, example: { name: 'Sunrise Academy', provinceId: 3, districtId: 27, municipalityId: 301, ward: 4 } },
    response: { status: 200, description: 'School profile saved', schema: successEnvelope(schoolProfile) },
  },
});
