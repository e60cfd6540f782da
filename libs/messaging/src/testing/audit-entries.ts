import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { quoteIdent } from '../outbox/outbox.js';
import { OUTBOX_TABLE } from '../outbox/outbox-schema.js';

/** One audit entry as a service recorded it in its outbox (contract §13): the event id is the entry's id. */
export type RecordedAuditEntry = EventPayload<typeof EVENT_TYPES.auditEntryRecorded> & { id: string };

/** What reading entries needs of a Prisma client (or any client with raw queries). */
export interface RawQuery {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** The audit entries recorded in `schema`'s outbox, oldest first (ids are UUIDv7). */
export async function auditEntriesIn(db: RawQuery, schema: string): Promise<RecordedAuditEntry[]> {
  const rows = await db.$queryRawUnsafe<{ id: string; payload: EventPayload<typeof EVENT_TYPES.auditEntryRecorded> }[]>(
    `SELECT id::text AS id, payload FROM ${quoteIdent(schema)}.${quoteIdent(OUTBOX_TABLE)} WHERE type = $1 ORDER BY id`,
    EVENT_TYPES.auditEntryRecorded,
  );
  return rows.map((row) => ({ id: row.id, ...row.payload }));
}

/** The strings a test used as secrets that no entry may hold, found anywhere in any entry. */
export function secretsIn(entries: readonly RecordedAuditEntry[], secrets: readonly string[]): string[] {
  const text = JSON.stringify(entries);
  return secrets.filter((secret) => secret.length > 0 && text.includes(secret));
}
