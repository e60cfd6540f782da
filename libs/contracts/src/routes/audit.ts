import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../events/event-payloads.js';
import { timestamp } from '../http/envelopes.js';
import { singleLine } from '../http/text-fields.js';
import { routeManifest } from './route-spec.js';

/** Contract §13: a page holds 1 to 200 entries, 50 unless `limit` says otherwise. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** The header row of the CSV answer, exactly as contract §13 spells it. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorPublicId',
  'actorEmail',
  'actorRole',
  'action',
  'targetType',
  'targetId',
  'ip',
  'userAgent',
  'requestId',
  'changes',
] as const;

/** The header carrying the next page's cursor beside a CSV page (absent on the last page). */
export const AUDIT_NEXT_CURSOR_HEADER = 'x-next-cursor';

/** The resources of the actions (`user`, `auth`, ...): `action=<resource>.*` names every action of one. */
export const AUDIT_RESOURCES = [...new Set(AUDIT_ACTIONS.map((action) => action.slice(0, action.indexOf('.'))))];

const actionFilter = z
  .string()
  .refine((value) => (AUDIT_ACTIONS as readonly string[]).includes(value) || (value.endsWith('.*') && AUDIT_RESOURCES.includes(value.slice(0, -2))), {
    message: `must be an audited action or <resource>.* (resources: ${AUDIT_RESOURCES.join(', ')})`,
  })
  .describe('one action (`user.update`) or every action of a resource (`user.*`)');

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** ISO 8601: a date-time with `Z` or an offset, or a date (a UTC day: `from` its first instant, `to` its last). */
const instant = (edge: 'T00:00:00.000Z' | 'T23:59:59.999Z') =>
  z
    .string()
    .refine((value) => (DATE_ONLY.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success) && !Number.isNaN(Date.parse(value)), {
      message: 'must be an ISO 8601 date or date-time with a time zone',
    })
    .transform((value) => new Date(DATE_ONLY.test(value) ? `${value}${edge}` : value))
    .pipe(z.date());

const limit = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a whole number from 1 to 200')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(AUDIT_PAGE_MAX, `must be at most ${AUDIT_PAGE_MAX}`))
  .default(AUDIT_PAGE_DEFAULT);

/** Contract §13 `GET /api/audit-events` filters and cursor; `from` and `to` are both inclusive. */
export const listAuditEventsQuery = z
  .strictObject({
    actor: z.uuid().optional().describe('the acting account’s publicId'),
    action: actionFilter.optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES, { message: `must be one of ${AUDIT_TARGET_TYPES.join(', ')}` }).optional(),
    targetId: singleLine(1, 512).optional().describe('the target’s publicId (a file’s key)'),
    from: instant('T00:00:00.000Z').optional().describe('entries at or after this instant (ISO 8601)'),
    to: instant('T23:59:59.999Z').optional().describe('entries at or before this instant (ISO 8601; a date means through its end, UTC)'),
    limit,
    cursor: z.string().max(512).optional().describe('the previous page’s nextCursor, as given'),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'must not be before from' });
export type ListAuditEventsQuery = z.output<typeof listAuditEventsQuery>;

export const auditEntrySchema = z.object({
  id: z.uuid(),
  occurredAt: timestamp,
  actor: z.object({ publicId: z.string(), email: z.string().nullable().describe('null once the account was erased'), role: z.string() }).nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string().nullable() }).nullable(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).describe('each changed field: { from, to }'),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntryDto = z.input<typeof auditEntrySchema>;

/** A page of entries: the success envelope with `nextCursor` beside `data` (null on the last page). */
export const auditPageEnvelope = z.object({
  message: z.string(),
  data: z.array(auditEntrySchema),
  errorCode: z.null(),
  nextCursor: z.string().nullable(),
});

const TAG = 'audit';

/** Contract §13: the audit trail, read-only (no route changes or deletes an entry). */
export const AUDIT_ROUTES = routeManifest({
  list: {
    method: 'GET',
    path: '/api/audit-events',
    auth: 'jwt',
    permissions: ['Audit_READ'],
    noStore: true,
    tag: TAG,
    summary: 'Audit entries, newest first (filters; cursor pages; JSON or CSV)',
    description:
      'Filters combine: actor, action (exact or `<resource>.*`), targetType, targetId, from and to (inclusive). Follow `nextCursor` until it is null. ' +
      '`Accept: text/csv` answers the same page as CSV (header row `' +
      AUDIT_CSV_COLUMNS.join(',') +
      '`, `changes` as JSON, cells starting with = + - @ prefixed with an apostrophe) and the next cursor in `X-Next-Cursor`.',
    query: listAuditEventsQuery,
    response: {
      status: 200,
      description: 'A page of entries',
      schema: auditPageEnvelope,
      raw: { contentTypes: ['text/csv'], schema: { type: 'string', description: `CSV (RFC 4180), header row ${AUDIT_CSV_COLUMNS.join(',')}` } },
      headers: {
        'X-Next-Cursor': { description: 'With `Accept: text/csv`: the next page’s cursor (absent on the last page)', schema: { type: 'string' } },
      },
    },
  },
});
