import { EventPattern as NestEventPattern } from '@nestjs/microservices';
import type { EventType } from '@school/contracts';
import { AMQP_EVENT_TRANSPORT } from './amqp-event.transport.js';

/**
 * Nest's `@EventPattern`, for handlers of the AMQP event transport: the pattern must be an event
 * type of the catalogue (or several; a misspelt one does not compile), the handler is bound to
 * that transport only, and it may take `@Ctx() context: AmqpEventContext` (Nest 12's own typing
 * refuses any second parameter that is not `unknown`).
 */
export function EventPattern(type: EventType | readonly EventType[]): MethodDecorator {
  return NestEventPattern<EventType | readonly EventType[]>(type, AMQP_EVENT_TRANSPORT);
}
