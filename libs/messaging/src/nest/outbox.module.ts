import { type DynamicModule, Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Registry } from '@school/metrics';
import { DatabaseSchema, ReadinessRegistry } from '@school/service';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import { EventPublisher } from '../amqp/event-publisher.js';
import { Outbox } from '../outbox/outbox.js';
import { registerOutboxMetrics } from '../outbox/outbox-metrics.js';
import { OutboxRelay, type OutboxRelayOptions } from '../outbox/outbox-relay.js';
import type { BrokerNames } from '../topology.js';
import { BROKER_NAMES } from './messaging.module.js';
import { nestMessagingLogger } from './nest-logger.js';

export interface OutboxModuleOptions {
  databaseUrl: string;
  /** Relay tuning (batch size, poll interval, retry backoff and attempt cap, claim lease, retention). */
  relay?: Pick<OutboxRelayOptions, 'batchSize' | 'pollIntervalMs' | 'retry' | 'retentionMs' | 'pruneIntervalMs' | 'claimLeaseMs' | 'maxAttempts'>;
}

const OUTBOX_PUBLISHER = Symbol('OUTBOX_PUBLISHER');

@Injectable()
class OutboxRelayLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly relay: OutboxRelay,
    @Inject(OUTBOX_PUBLISHER) private readonly publisher: EventPublisher,
    private readonly readiness: ReadinessRegistry,
    private readonly metrics: Registry,
    private readonly schema: DatabaseSchema,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('outbox-relay', () => this.relay.check());
    registerOutboxMetrics(this.metrics, this.relay, this.schema.name);
    this.relay.start();
  }

  /** First phase of shutdown: the batch in flight is published, confirmed and marked before the connection closes. */
  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
    await this.publisher.close();
  }
}

/**
 * For a producing service (needs MessagingModule, and DatabaseModule for the schema): provides `Outbox` (`record(tx, type, payload)`
 * in the service's own Prisma transactions) and runs the relay publishing the rows.
 */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxModuleOptions): DynamicModule {
    return {
      module: OutboxModule,
      // One outbox per producing service, used by every context that records events.
      global: true,
      providers: [
        // The outbox lives in the service's own schema, named once by DatabaseModule (contract §1).
        { provide: Outbox, useFactory: (schema: DatabaseSchema) => new Outbox(schema.name), inject: [DatabaseSchema] },
        {
          provide: OUTBOX_PUBLISHER,
          useFactory: (connection: AmqpConnection, names: BrokerNames) => new EventPublisher(connection, { names, logger: nestMessagingLogger('EventPublisher') }),
          inject: [AmqpConnection, BROKER_NAMES],
        },
        {
          provide: OutboxRelay,
          useFactory: (connection: AmqpConnection, publisher: EventPublisher, schema: DatabaseSchema) =>
            new OutboxRelay({
              ...options.relay,
              databaseUrl: options.databaseUrl,
              schema: schema.name,
              publisher,
              broker: connection,
              logger: nestMessagingLogger('OutboxRelay'),
            }),
          inject: [AmqpConnection, OUTBOX_PUBLISHER, DatabaseSchema],
        },
        OutboxRelayLifecycle,
      ],
      exports: [Outbox],
    };
  }
}
