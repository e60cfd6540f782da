import { Injectable } from '@nestjs/common';
import type { AuditEntryDto, ListAuditEventsQuery } from '@school/contracts';
import { decodeCursor, encodeCursor } from '../audit-cursor.js';
import { AuditEntriesRepository, type AuditFilter, type StoredAuditEntry } from '../audit-entries.repository.js';
import type { AuditChanges } from '../erasure-scrub.js';

export interface AuditPage {
  entries: AuditEntryDto[];
  /** null on the last page. */
  nextCursor: string | null;
}

/** `{ from, to }` in that order (jsonb keeps keys in its own order). */
function changesOf(stored: unknown): AuditChanges {
  return Object.fromEntries(Object.entries(stored as AuditChanges).map(([field, change]) => [field, { from: change.from, to: change.to }]));
}

export function auditEntryDto(entry: StoredAuditEntry): AuditEntryDto {
  return {
    id: entry.id,
    occurredAt: entry.occurredAt.toISOString(),
    actor: entry.actorPublicId === null ? null : { publicId: entry.actorPublicId, email: entry.actorEmail, role: entry.actorRole ?? '' },
    action: entry.action as AuditEntryDto['action'],
    target: entry.targetType === null ? null : { type: entry.targetType as NonNullable<AuditEntryDto['target']>['type'], id: entry.targetId },
    changes: changesOf(entry.changes),
    ip: entry.ip,
    userAgent: entry.userAgent,
    requestId: entry.requestId,
  };
}

function filterOf(query: ListAuditEventsQuery): AuditFilter {
  const byResource = query.action?.endsWith('.*');
  return {
    actor: query.actor?.toLowerCase(),
    action: byResource ? undefined : query.action,
    resource: byResource ? query.action?.slice(0, -2) : undefined,
    targetType: query.targetType,
    targetId: query.targetId,
    from: query.from,
    to: query.to,
  };
}

/**
 * Contract §13 `GET /api/audit-events`: one page of entries, newest first, after the cursor's
 * position. One row more than the page is read: its presence alone says a next page exists, whose
 * cursor is the position of the page's last entry.
 */
@Injectable()
export class ListEntries {
  constructor(private readonly entries: AuditEntriesRepository) {}

  async execute(query: ListAuditEventsQuery): Promise<AuditPage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await this.entries.list(filterOf(query), after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { entries: page.map(auditEntryDto), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }
}
