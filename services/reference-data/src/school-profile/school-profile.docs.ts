import { PERMISSIONS } from '@school/auth';
import { type RouteDoc, successEnvelope, timestamp } from '@school/openapi';
import { z } from 'zod';
import { putSchoolProfileBody } from './dto/school-profile.dto.js';

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

const TAG = 'school-profile';

/** Contract §6. */
export const SCHOOL_PROFILE_ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/school-profile',
    tag: TAG,
    summary: 'The school profile (data null before the first PUT)',
    response: { status: 200, description: 'School profile', schema: successEnvelope(schoolProfile.nullable()) },
    permissions: [PERMISSIONS.SchoolProfile_READ],
  },
  {
    method: 'PUT',
    path: '/api/school-profile',
    tag: TAG,
    summary: 'Replace the school profile',
    description: 'provinceId, districtId and municipalityId must exist and nest, else 400 VALIDATION_FAILED.',
    body: { json: putSchoolProfileBody, example: { name: 'Sunrise Academy', provinceId: 3, districtId: 27, municipalityId: 301, ward: 4 } },
    response: { status: 200, description: 'School profile saved', schema: successEnvelope(schoolProfile) },
    permissions: [PERMISSIONS.SchoolProfile_UPDATE],
  },
];
