import { type DynamicModule, Inject, Injectable, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Registry } from '@school/metrics';
import { ReadinessRegistry } from '@school/service';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import { registerQueueMetrics } from '../amqp/queue-metrics.js';
import type { EventType } from '@school/contracts';
import { consumerTopology, type BrokerNames, type ConsumerTopology, type RetryPolicy } from '../topology.js';
import { AmqpEventTransport } from './amqp-event.transport.js';
import { BROKER_NAMES } from './messaging.module.js';
import { nestMessagingLogger } from './nest-logger.js';

export interface EventTransportModuleOptions {
  /** The consuming service's name: its queues are `<consumer>.events`, `.events.dlq`, `.events.retry.<ms>ms`. */
  consumer: string;
  /** The event types it consumes, bound to its queue; each needs an `@EventPattern` handler. */
  bindings: readonly EventType[];
  /** Unacknowledged messages in flight at once. */
  prefetch: number;
  /** Retry delays and bound (tests shorten them); DEFAULT_RETRY_POLICY otherwise. */
  retry?: RetryPolicy;
}

const CONSUMER_TOPOLOGY = Symbol('CONSUMER_TOPOLOGY');

@Injectable()
class EventTransportLifecycle implements OnModuleInit, OnModuleDestroy {
  private queueMetrics: { close(): Promise<void> } | undefined;

  constructor(
    private readonly transport: AmqpEventTransport,
    private readonly readiness: ReadinessRegistry,
    private readonly metrics: Registry,
    private readonly connection: AmqpConnection,
    @Inject(CONSUMER_TOPOLOGY) private readonly topology: ConsumerTopology,
  ) {}

  onModuleInit(): void {
    this.readiness.register('event-consumer', async () => {
      if (!this.transport.isConsuming()) throw new Error('not subscribed to the events queue');
    });
    this.queueMetrics = registerQueueMetrics(this.metrics, this.connection, this.topology);
  }

  /**
   * First shutdown phase: stop consuming and let the handlers in progress commit and ack while
   * the database, Redis and the job queues are still open (Nest closes microservices only after
   * `beforeApplicationShutdown`, when they are gone). The later close() is then a no-op.
   */
  async onModuleDestroy(): Promise<void> {
    await this.transport.close();
    await this.queueMetrics?.close();
  }
}

/**
 * For a consuming service (needs MessagingModule): provides the AmqpEventTransport of its own
 * queue, declared from `consumer` and `bindings` (consumerTopology), reported by /health/ready as
 * `event-consumer`. The service hosts it with `app.connectMicroservice({ strategy:
 * app.get(AmqpEventTransport) })` and `app.startAllMicroservices()`; its `@EventPattern`
 * controllers then receive the events.
 */
@Module({})
export class EventTransportModule {
  static forRoot(options: EventTransportModuleOptions): DynamicModule {
    return {
      module: EventTransportModule,
      providers: [
        {
          provide: CONSUMER_TOPOLOGY,
          useFactory: (names: BrokerNames) => consumerTopology(options.consumer, options.bindings, { prefix: names.prefix, ...(options.retry && { retry: options.retry }) }),
          inject: [BROKER_NAMES],
        },
        {
          provide: AmqpEventTransport,
          useFactory: (connection: AmqpConnection, topology: ConsumerTopology) =>
            new AmqpEventTransport(connection, { topology, prefetch: options.prefetch, logger: nestMessagingLogger('EventConsumer') }),
          inject: [AmqpConnection, CONSUMER_TOPOLOGY],
        },
        EventTransportLifecycle,
      ],
      exports: [AmqpEventTransport],
    };
  }
}
