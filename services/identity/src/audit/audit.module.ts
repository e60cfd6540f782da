import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { eventsController, handledBy, InboxModule } from '@school/messaging/nest';
import { AccountsModule } from '../accounts/accounts.module.js';
import { AuditEntriesController } from './audit-entries.controller.js';
import { AuditEntriesRepository } from './audit-entries.repository.js';
import { AuditRetention } from './audit-retention.js';
import { ListEntries } from './use-cases/list-entries.js';
import { RecordEntry } from './use-cases/record-entry.js';
import { ScrubErasedAccount } from './use-cases/scrub-erased-account.js';

/** What identity consumes (`identity.events`, its retry queues and dead-letter queue): every service's audit entries, and erasures. */
export const AUDIT_EVENTS = { consumer: 'identity', bindings: [EVENT_TYPES.auditEntryRecorded, EVENT_TYPES.userErased] } as const;

/** Contract §13: the audit store. It builds on the accounts only (the actor's email). */
@Module({
  imports: [InboxModule, AccountsModule],
  controllers: [
    AuditEntriesController,
    eventsController({ [EVENT_TYPES.auditEntryRecorded]: handledBy(RecordEntry, 'handle'), [EVENT_TYPES.userErased]: handledBy(ScrubErasedAccount, 'handle') }),
  ],
  providers: [AuditEntriesRepository, RecordEntry, ScrubErasedAccount, ListEntries, AuditRetention],
})
export class AuditStoreModule {}
