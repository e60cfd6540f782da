import { Injectable, Logger } from '@nestjs/common';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { DeadLetterError, decodeEvent, Inbox } from '@school/messaging';
import { AccountEmailsRepository } from '../../accounts/account-emails.repository.js';
import { AuditEntriesRepository, type NewAuditEntry } from '../audit-entries.repository.js';
import { withoutPersonalFields } from '../erasure-scrub.js';

type RecordedEntry = EventPayload<'audit.entry_recorded'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Contract §13: stores an `audit.entry_recorded` event of any service's outbox as one entry, once.
 * The event id (the broker message id) is the entry id; the inbox (and the entry id itself) make the
 * same event delivered twice one entry. The actor's email comes from identity's accounts at this moment; an entry naming an account
 * already erased is stored as the erasure's scrub would have left it (no email; no personal changes).
 */
@Injectable()
export class RecordEntry {
  private readonly logger = new Logger('AuditStore');

  constructor(
    private readonly entries: AuditEntriesRepository,
    private readonly emails: AccountEmailsRepository,
    private readonly inbox: Inbox,
  ) {}

  /** Resolves once the entry is committed (or was stored already): the transport then acks. */
  async handle(body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(EVENT_TYPES.auditEntryRecorded, body, messageId);
    if (!UUID.test(received.messageId)) throw new DeadLetterError('an audit entry’s message id is its entry id, a UUID');
    const recorded = received.event.payload as RecordedEntry;
    const id = received.messageId.toLowerCase();
    const fresh = await this.inbox.once(received, async (tx) => {
      const actorId = recorded.actor?.publicId.toLowerCase();
      const targetUserId = recorded.target?.type === 'user' ? recorded.target.id?.toLowerCase() : undefined;
      const accounts = [actorId, targetUserId].filter((value): value is string => !!value);
      await this.entries.lockAccounts(tx, accounts, 'shared');
      const erased = await this.entries.erasedAmong(tx, accounts);
      const actor = recorded.actor && actorId ? { ...recorded.actor, email: erased.has(actorId) ? null : await this.emails.emailOf(actorId, tx) } : null;
      const targetErased = targetUserId !== undefined && erased.has(targetUserId);
      const entry: NewAuditEntry = {
        id,
        occurredAt: new Date(recorded.occurredAt),
        actor,
        action: recorded.action,
        resource: recorded.action.slice(0, recorded.action.indexOf('.')),
        target: recorded.target,
        changes: targetErased ? withoutPersonalFields(recorded.changes) : recorded.changes,
        ip: recorded.ip,
        userAgent: recorded.userAgent,
        requestId: recorded.requestId,
      };
      await this.entries.insert(tx, entry);
    });
    if (!fresh) this.logger.debug({ messageId: id, msg: 'audit entry stored already; duplicate skipped' });
  }
}
