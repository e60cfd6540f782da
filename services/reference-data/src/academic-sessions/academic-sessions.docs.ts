import { PERMISSIONS } from '@school/auth';
import { nullEnvelope, paginatedEnvelope, publicIdParams, type RouteDoc, successEnvelope, timestamp } from '@school/openapi';
import { z } from 'zod';
import { createAcademicSessionBody, updateAcademicSessionBody } from './dto/academic-session-body.dto.js';
import { listAcademicSessionsQuery } from './dto/list-academic-sessions.query.js';

/** Spec §2.7 AcademicSessionDto. */
const academicSession = z.object({
  id: z.number().int(),
  publicId: z.uuid(),
  name: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  isCurrent: z.boolean(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const TAG = 'academic-sessions';
const DATES = 'startDate and endDate are calendar dates YYYY-MM-DD; endDate must be strictly after startDate.';

/** Spec §4.6. */
export const ACADEMIC_SESSION_ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/academic-sessions',
    tag: TAG,
    summary: 'List academic sessions (paginated, cached)',
    description: '`sort` is name or endDate; any other value sorts by startDate. Ties are broken by id ascending.',
    query: listAcademicSessionsQuery,
    response: { status: 200, description: 'Academic sessions', schema: paginatedEnvelope(academicSession) },
    permissions: [PERMISSIONS.AcademicSessions_READ],
  },
  {
    method: 'POST',
    path: '/api/academic-sessions',
    tag: TAG,
    summary: 'Create an academic session (isCurrent true hands the current flag over)',
    description: DATES,
    body: { json: createAcademicSessionBody, example: { name: '2025/26', startDate: '2025-04-14', endDate: '2026-04-13', isCurrent: true } },
    response: { status: 201, description: 'Academic session created', schema: successEnvelope(academicSession) },
    errors: ['ACADEMIC_SESSION_NAME_TAKEN', 'ACADEMIC_SESSION_DATES_INVALID', 'ACADEMIC_SESSION_CURRENT_CONFLICT'],
    permissions: [PERMISSIONS.AcademicSessions_CREATE],
  },
  {
    method: 'PATCH',
    path: '/api/academic-sessions/{publicId}',
    tag: TAG,
    summary: 'Update an academic session; isCurrent true makes it current',
    description: `${DATES} A single date is checked against the stored other one.`,
    params: publicIdParams,
    body: { json: updateAcademicSessionBody, example: { isCurrent: true } },
    response: { status: 200, description: 'Academic session updated', schema: successEnvelope(academicSession) },
    errors: [
      'ACADEMIC_SESSION_NOT_FOUND',
      'ACADEMIC_SESSION_NAME_TAKEN',
      'ACADEMIC_SESSION_DATES_INVALID',
      'ACADEMIC_SESSION_CURRENT_REQUIRED',
      'ACADEMIC_SESSION_CURRENT_CONFLICT',
    ],
    permissions: [PERMISSIONS.AcademicSessions_UPDATE],
  },
  {
    method: 'DELETE',
    path: '/api/academic-sessions/{publicId}',
    tag: TAG,
    summary: 'Delete an academic session that is not current',
    params: publicIdParams,
    response: { status: 200, description: 'Academic session deleted', schema: nullEnvelope },
    errors: ['ACADEMIC_SESSION_NOT_FOUND', 'ACADEMIC_SESSION_IS_CURRENT'],
    permissions: [PERMISSIONS.AcademicSessions_DELETE],
  },
];
