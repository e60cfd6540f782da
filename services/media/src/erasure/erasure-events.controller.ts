import { Controller, UseFilters } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { AmqpEventContext, Ctx, EventErrorFilter, EventPattern, Payload } from '@school/messaging/nest';
import { MediaErasureService } from './media-erasure.service.js';

/** Identity's erasures, served by the AMQP event transport (manual acks, retries, dead-letter queue). */
@Controller()
@UseFilters(EventErrorFilter)
export class ErasureEventsController {
  constructor(private readonly erasure: MediaErasureService) {}

  @EventPattern(EVENT_TYPES.userErased)
  userErased(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.erasure.handle(body, context.getMessage().messageId);
  }
}
