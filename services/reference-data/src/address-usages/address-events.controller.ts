import { Controller, UseFilters } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { AmqpEventContext, Ctx, EventErrorFilter, EventPattern, Payload } from '@school/messaging/nest';
import { AddressUsagesService } from './address-usages.service.js';

/**
 * Identity's address events and erasures, served by the AMQP event transport (manual acks): a handler that
 * resolves acks its message, a DeadLetterError dead-letters it, any other error retries it.
 */
@Controller()
@UseFilters(EventErrorFilter)
export class AddressEventsController {
  constructor(private readonly usages: AddressUsagesService) {}

  @EventPattern(EVENT_TYPES.userAddressChanged)
  userAddressChanged(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.usages.handle(body, context.getMessage().messageId);
  }

  @EventPattern(EVENT_TYPES.userErased)
  userErased(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return this.usages.handleErased(body, context.getMessage().messageId);
  }
}
