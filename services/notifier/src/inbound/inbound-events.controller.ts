import { Controller, UseFilters } from '@nestjs/common';
import { EVENT_TYPES, type EventType } from '@school/contracts';
import { AmqpEventContext, Ctx, EventErrorFilter, EventPattern, Payload } from '@school/messaging/nest';
import { InboundEventsService } from './inbound-events.service.js';

/**
 * The events the notifier consumes, one handler per type, served by the AMQP event transport
 * (manual acks): a handler that resolves acks its message, a DeadLetterError dead-letters it, any
 * other error requeues it. EventErrorFilter hands those errors to the transport unchanged.
 */
@Controller()
@UseFilters(EventErrorFilter)
export class InboundEventsController {
  constructor(private readonly inbound: InboundEventsService) {}

  @EventPattern(EVENT_TYPES.feedbackSubmitted)
  feedbackSubmitted(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.feedbackSubmitted, body, context);
  }

  @EventPattern(EVENT_TYPES.invitationCreated)
  invitationCreated(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.invitationCreated, body, context);
  }

  @EventPattern(EVENT_TYPES.passwordResetRequested)
  passwordResetRequested(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.passwordResetRequested, body, context);
  }

  @EventPattern(EVENT_TYPES.passwordChanged)
  passwordChanged(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.passwordChanged, body, context);
  }

  @EventPattern(EVENT_TYPES.newDeviceSignedIn)
  newDeviceSignedIn(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.newDeviceSignedIn, body, context);
  }

  @EventPattern(EVENT_TYPES.recoveryCodeUsed)
  recoveryCodeUsed(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.recoveryCodeUsed, body, context);
  }

  @EventPattern(EVENT_TYPES.mfaDisabled)
  mfaDisabled(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.mfaDisabled, body, context);
  }

  @EventPattern(EVENT_TYPES.emailVerificationRequested)
  emailVerificationRequested(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.emailVerificationRequested, body, context);
  }

  @EventPattern(EVENT_TYPES.phoneVerificationRequested)
  phoneVerificationRequested(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.phoneVerificationRequested, body, context);
  }

  @EventPattern(EVENT_TYPES.userErased)
  userErased(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.userErased, body, context);
  }

  @EventPattern(EVENT_TYPES.accountDeletedNotice)
  accountDeletedNotice(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.handle(EVENT_TYPES.accountDeletedNotice, body, context);
  }

  private handle(type: EventType, body: unknown, context: AmqpEventContext): Promise<void> {
    return this.inbound.handle(type, body, context.getMessage().messageId);
  }
}
