import { z } from 'zod';
import { isCalendarDate } from '../http/calendar-date.js';
import { nullEnvelope, paginatedEnvelope, publicIdParams, successEnvelope, timestamp } from '../http/envelopes.js';
import { listQueryShape } from '../http/list-query.js';
import { queryBoolean, singleLine } from '../http/text-fields.js';
import { routeManifest } from './route-spec.js';

/** Spec §8: an academic session name is 1-64 characters (after trimming; single-line, contract §3). */
const name = singleLine(1, 64);

/** Spec §2.7: an ISO date `YYYY-MM-DD` that exists in the calendar (2025-02-30 does not), RFC 3339's full-date. */
const isoDate = z.string().refine(isCalendarDate, 'must be a date YYYY-MM-DD').meta({ format: 'date' });

/** CreateAcademicSessionDto (spec §2.7). */
export const createAcademicSessionBody = z.strictObject({
  name,
  startDate: isoDate,
  endDate: isoDate,
  isCurrent: z.boolean().default(false),
  isActive: z.boolean().default(true),
});
export type CreateAcademicSessionBody = z.output<typeof createAcademicSessionBody>;

/** UpdateAcademicSessionDto (spec §2.7): every field optional, same validation as create. */
export const updateAcademicSessionBody = z.strictObject({
  name: name.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  isCurrent: z.boolean().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateAcademicSessionBody = z.output<typeof updateAcademicSessionBody>;

export const ACADEMIC_SESSION_SORTS = ['startDate', 'name', 'endDate'] as const;
export type AcademicSessionSort = (typeof ACADEMIC_SESSION_SORTS)[number];

/**
 * ListAcademicSessionsQueryDto (spec §2.7, contract §5). `sort` accepts `name` or `endDate`; any
 * other value, the default included, sorts by startDate.
 */
export const listAcademicSessionsQuery = z.strictObject({
  ...listQueryShape({ defaultOrder: 'desc' }),
  search: singleLine(0, 64).optional(),
  isActive: queryBoolean.optional(),
  isCurrent: queryBoolean.optional(),
  sort: z
    .string()
    .optional()
    .transform((value): AcademicSessionSort => (value === 'name' || value === 'endDate' ? value : 'startDate')),
});
export type ListAcademicSessionsQuery = z.output<typeof listAcademicSessionsQuery>;

/** Spec §2.7 AcademicSessionDto. */
export const academicSession = z.object({
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
export type AcademicSessionDto = z.input<typeof academicSession>;

const DATES = 'startDate and endDate are calendar dates YYYY-MM-DD; endDate must be strictly after startDate.';

/** Spec §4.6: the four academic-session routes, each behind its permission. */
export const ACADEMIC_SESSION_ROUTES = routeManifest({
  list: {
    method: 'GET',
    path: '/api/academic-sessions',
    auth: 'jwt',
    permissions: ['AcademicSessions_READ'],
    tag: 'academic-sessions',
    summary: 'List academic sessions (paginated, cached)',
    description: '`sort` is name or endDate; any other value sorts by startDate. Ties are broken by id ascending.',
    query: listAcademicSessionsQuery,
    response: { status: 200, description: 'Academic sessions', schema: paginatedEnvelope(academicSession) },
  },
  create: {
    method: 'POST',
    path: '/api/academic-sessions',
    auth: 'jwt',
    permissions: ['AcademicSessions_CREATE'],
    tag: 'academic-sessions',
    summary: 'Create an academic session (isCurrent true hands the current flag over)',
    description: DATES,
    body: { json: createAcademicSessionBody, example: { name: '2025/26', startDate: '2025-04-14', endDate: '2026-04-13', isCurrent: true } },
    response: { status: 201, description: 'Academic session created', schema: successEnvelope(academicSession) },
    errors: ['ACADEMIC_SESSION_NAME_TAKEN', 'ACADEMIC_SESSION_DATES_INVALID', 'ACADEMIC_SESSION_CURRENT_CONFLICT'],
  },
  update: {
    method: 'PATCH',
    path: '/api/academic-sessions/:publicId',
    auth: 'jwt',
    permissions: ['AcademicSessions_UPDATE'],
    tag: 'academic-sessions',
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
  },
  remove: {
    method: 'DELETE',
    path: '/api/academic-sessions/:publicId',
    auth: 'jwt',
    permissions: ['AcademicSessions_DELETE'],
    tag: 'academic-sessions',
    summary: 'Delete an academic session that is not current',
    params: publicIdParams,
    response: { status: 200, description: 'Academic session deleted', schema: nullEnvelope },
    errors: ['ACADEMIC_SESSION_NOT_FOUND', 'ACADEMIC_SESSION_IS_CURRENT'],
  },
});
