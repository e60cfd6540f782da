import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ReadinessRegistry } from '@school/service';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import type { BackoffOptions } from '../backoff.js';
import { brokerNames, type BrokerNames } from '../topology.js';
import { nestMessagingLogger } from './nest-logger.js';

export interface MessagingModuleOptions {
  url: string;
  /** Connection name shown in the management UI, e.g. `feedback`. */
  connectionName: string;
  /** Prefix of exchange and queue names (tests); production uses none. */
  namePrefix?: string;
  reconnect?: Partial<BackoffOptions>;
}

/** Injection token of the (prefixed) exchange and queue names. */
export const BROKER_NAMES = Symbol('BROKER_NAMES');

@Injectable()
class AmqpLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly connection: AmqpConnection,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('amqp', async () => {
      if (!this.connection.isConnected()) throw new Error('AMQP not connected');
    });
  }

  /** Last phase of shutdown: consumers and relays stopped in onModuleDestroy already. */
  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}

/** The service's AMQP connection (global): reconnects with backoff, reported by /health/ready as `amqp`. */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        { provide: BROKER_NAMES, useValue: brokerNames(options.namePrefix) },
        {
          provide: AmqpConnection,
          useFactory: () =>
            new AmqpConnection({
              url: options.url,
              name: options.connectionName,
              logger: nestMessagingLogger('AMQP'),
              ...(options.reconnect && { reconnect: options.reconnect }),
            }),
        },
        AmqpLifecycle,
      ],
      exports: [BROKER_NAMES, AmqpConnection],
    };
  }
}

export const InjectBrokerNames = (): ParameterDecorator => Inject(BROKER_NAMES);
export type { BrokerNames };
