import type { INestApplication } from '@nestjs/common';
import { AmqpEventTransport } from './amqp-event.transport.js';

/**
 * Hosts a consuming service's `@EventPattern` handlers on the AMQP event transport of its
 * EventTransportModule (a hybrid app: HTTP plus this microservice). The app is initialised first so
 * consuming starts only once every module's init hooks ran (Redis subscriber, readiness checks,
 * workers). Shutdown needs nothing here: EventTransportModule stops consuming in its onModuleDestroy.
 */
export async function startEventTransport(app: INestApplication): Promise<void> {
  await app.init();
  app.connectMicroservice({ strategy: app.get(AmqpEventTransport) });
  await app.startAllMicroservices();
}
