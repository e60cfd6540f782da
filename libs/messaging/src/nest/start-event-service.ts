import type { DynamicModule } from '@nestjs/common';
import { startService, type StartServiceOptions } from '@school/service';
import type { z } from 'zod';
import { startEventTransport } from './start-event-transport.js';

export interface StartEventServiceOptions<Shape extends z.ZodRawShape> extends Omit<StartServiceOptions<Shape>, 'module' | 'beforeListen'> {
  /** The service's root module, wired from its validated config. */
  app: { forRoot(config: z.infer<z.ZodObject<Shape>>): DynamicModule };
}

/** A Nest service's whole main(): startService, with its `@EventPattern` handlers hosted on the AMQP event transport. */
export function startEventService<Shape extends z.ZodRawShape>({ app, ...options }: StartEventServiceOptions<Shape>) {
  return startService({ ...options, module: (config) => app.forRoot(config), beforeListen: startEventTransport });
}
