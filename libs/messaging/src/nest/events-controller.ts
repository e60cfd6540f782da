import { Controller, Inject, type Type, UseFilters } from '@nestjs/common';
import type { EventType } from '@school/contracts';
import { Ctx, Payload } from '@nestjs/microservices';
import { AmqpEventContext } from './amqp-event.transport.js';
import { EventErrorFilter } from './event-error.filter.js';
import { EventPattern } from './event-pattern.js';

type Handles<Service> = {
  [Key in keyof Service]: Service[Key] extends (body: unknown, messageId: string | undefined) => Promise<void> ? Key : never;
}[keyof Service];

/** One event type's handler: a provider of the consuming module and its method taking (body, message id). */
export interface EventHandlerRef {
  readonly service: Type<unknown>;
  readonly method: PropertyKey;
}

export function handledBy<Service>(service: Type<Service>, method: Handles<Service>): EventHandlerRef {
  return { service, method };
}

export type EventHandlerMap = { readonly [Type in EventType]?: EventHandlerRef };

/**
 * The `@EventPattern` controller of a consuming module, declared from a map of event type to handler:
 * one handler for every key the map names (the routing key is the event type), behind
 * EventErrorFilter so the transport decides ack, retry or dead-letter from what the handler throws.
 */
export function eventsController(handlers: EventHandlerMap): Type<unknown> {
  const types = Object.keys(handlers) as EventType[];
  const services = [...new Set(types.map((type) => handlers[type]!.service))];

  @Controller()
  @UseFilters(EventErrorFilter)
  class EventsController {
    private readonly instances: unknown[];

    constructor(...instances: unknown[]) {
      this.instances = instances;
    }

    @EventPattern(types)
    handle(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
      const message = context.getMessage();
      const handler = handlers[message.routingKey as EventType]!;
      const instance = this.instances[services.indexOf(handler.service)] as Record<PropertyKey, (body: unknown, messageId: string | undefined) => Promise<void>>;
      return instance[handler.method]!(body, message.messageId);
    }
  }
  services.forEach((service, index) => Inject(service)(EventsController, undefined, index));
  return EventsController;
}
