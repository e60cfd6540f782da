import { type DynamicModule, Injectable, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ReadinessRegistry } from '@school/service';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import type { BackoffOptions } from '../backoff.js';
import { NOTIFIER_BINDINGS, type BrokerNames } from '../topology.js';
import { AmqpEventTransport } from './amqp-event.transport.js';
import { BROKER_NAMES } from './messaging.module.js';
import { nestMessagingLogger } from './nest-logger.js';

export interface EventTransportModuleOptions {
  /** Unacknowledged messages in flight at once. */
  prefetch: number;
  /** Wait before a failed message goes back to the queue (tests shorten it). */
  retry?: Partial<BackoffOptions>;
}

@Injectable()
class EventTransportLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly transport: AmqpEventTransport,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('event-consumer', async () => {
      if (!this.transport.isConsuming()) throw new Error('not subscribed to the events queue');
    });
  }

  /**
   * First shutdown phase: stop consuming and let the handlers in progress commit and ack while
   * the database, Redis and the job queues are still open (Nest closes microservices only after
   * `beforeApplicationShutdown`, when they are gone). The later close() is then a no-op.
   */
  async onModuleDestroy(): Promise<void> {
    await this.transport.close();
  }
}

/**
 * For the consuming service (needs MessagingModule): provides the AmqpEventTransport of the
 * notifier's queue, reported by /health/ready as `event-consumer`. The service hosts it with
 * `app.connectMicroservice({ strategy: app.get(AmqpEventTransport) })` and
 * `app.startAllMicroservices()`; its `@EventPattern` controllers then receive the events.
 */
@Module({})
export class EventTransportModule {
  static forRoot(options: EventTransportModuleOptions): DynamicModule {
    return {
      module: EventTransportModule,
      providers: [
        {
          provide: AmqpEventTransport,
          useFactory: (connection: AmqpConnection, names: BrokerNames) =>
            new AmqpEventTransport(connection, {
              names,
              bindings: NOTIFIER_BINDINGS,
              prefetch: options.prefetch,
              logger: nestMessagingLogger('EventConsumer'),
              ...(options.retry && { retry: options.retry }),
            }),
          inject: [AmqpConnection, BROKER_NAMES],
        },
        EventTransportLifecycle,
      ],
      exports: [AmqpEventTransport],
    };
  }
}
