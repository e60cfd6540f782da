import { Controller, UseFilters } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { AmqpEventContext, Ctx, EventErrorFilter, EventPattern, Payload } from '@school/messaging/nest';
import { RecordEntry } from './use-cases/record-entry.js';
import { ScrubErasedAccount } from './use-cases/scrub-erased-account.js';

/**
 * The events the audit store consumes from every service's outbox (manual acks): a handler that
 * resolves acks its message, a DeadLetterError dead-letters it, any other error retries it.
 */
@Controller()
@UseFilters(EventErrorFilter)
export class AuditEventsController {
  constructor(
    private readonly recordEntry: RecordEntry,
    private readonly scrubErasedAccount: ScrubErasedAccount,
  ) {}

  @EventPattern(EVENT_TYPES.auditEntryRecorded)
  entryRecorded(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.recordEntry.handle(body, context.getMessage().messageId);
  }

  @EventPattern(EVENT_TYPES.userErased)
  userErased(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.scrubErasedAccount.handle(body, context.getMessage().messageId);
  }
}
