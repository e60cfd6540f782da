import { Controller, UseFilters } from '@nestjs/common';
import type { EventType } from '@school/contracts';
import { AmqpEventContext, Ctx, EventErrorFilter, EventPattern, Payload } from '@school/messaging/nest';
import { INBOUND_EVENTS } from './inbound-topology.js';
import { InboundEventsService } from './inbound-events.service.js';

/**
 * The events the notifier consumes (INBOUND_EVENTS, from NOTIFICATION_EFFECTS), served by the AMQP
 * event transport (manual acks): a handler that resolves acks its message, a DeadLetterError
 * dead-letters it, any other error requeues it. EventErrorFilter hands those errors to the transport unchanged.
 */
@Controller()
@UseFilters(EventErrorFilter)
export class InboundEventsController {
  constructor(private readonly inbound: InboundEventsService) {}

  /** The routing key is the event type, and the transport calls this only for the keys bound. */
  @EventPattern(INBOUND_EVENTS.bindings)
  handle(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    const message = context.getMessage();
    return this.inbound.handle(message.routingKey as EventType, body, message.messageId);
  }
}
