import type { AuditAction, AuditTargetType } from '@school/contracts';
import type { Transaction } from '@school/service';
import { EVENT_TYPES } from '@school/contracts';
import type { Outbox, SqlExecutor } from '../outbox/outbox.js';
import type { AuditChanges } from './audit-changes.js';
import { type AuditActor, currentAuditContext } from './audit-context.js';

export interface AuditTarget {
  type: AuditTargetType;
  /** The row's publicId (a file's key); null for the school profile. */
  id: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  target: AuditTarget | null;
  /** `{ field: { from, to } }` of what the request changed (auditChanges); none for an event that changes no field. */
  changes?: AuditChanges;
  /**
   * Who acted, when it is not the authenticated caller: for sign-in events, the account whose
   * email was given (contract §13).
   */
  actor?: AuditActor | null;
}

/**
 * Contract §13: records one audit entry as an `audit.entry_recorded` event in the service's outbox,
 * inside the change's own transaction: the entry exists if and only if the change commits. The
 * request's context (caller, client address, user agent, request id) comes from the request in
 * progress (AuditModule). The outbox event id is the entry's id.
 */
export class AuditRecorder {
  constructor(private readonly outbox: Pick<Outbox, 'record'>) {}

  record(tx: Transaction | SqlExecutor, entry: AuditRecord): Promise<string> {
    const context = currentAuditContext();
    return this.outbox.record(tx, EVENT_TYPES.auditEntryRecorded, {
      occurredAt: new Date().toISOString(),
      actor: entry.actor !== undefined ? entry.actor : context.actor,
      action: entry.action,
      target: entry.target,
      changes: entry.changes ?? {},
      ip: cut(context.ip, 64),
      userAgent: cut(context.userAgent, 512),
      requestId: cut(context.requestId, 128),
    });
  }
}

function cut(value: string | null, max: number): string | null {
  return value === null ? null : value.slice(0, max);
}
