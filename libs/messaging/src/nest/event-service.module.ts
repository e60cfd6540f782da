import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import type { ServiceName } from '@school/config';
import { ClientAddressModule } from '@school/auth/nest';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import { AuditModule } from './audit.module.js';
import { EventTransportModule, type EventTransportModuleOptions } from './event-transport.module.js';
import { MessagingModule } from './messaging.module.js';
import { OutboxModule } from './outbox.module.js';
import { RpcModule, type RpcModuleOptions } from './rpc.module.js';

type CoreConfig = Parameters<typeof ServiceCoreModule.forRoot>[1];
type PrismaClass = Parameters<typeof ServiceCoreModule.forRoot>[2];

export interface EventServiceConfig extends CoreConfig {
  AMQP_URL: string;
  AMQP_NAME_PREFIX: string;
  FORWARDING_SECRET?: string | undefined;
}

export interface EventServiceWiring {
  /** The queue the service consumes (its `@EventPattern` handlers are in `modules`). */
  consumes: EventTransportModuleOptions;
  /** The RPC contracts it answers; every service may ask. */
  serves?: RpcModuleOptions['serves'];
  /** Publishes events through its outbox, in the transactions of its writes. */
  outbox?: boolean;
  /** Records audit entries of administrator writes (contract §13) through that outbox. */
  audit?: boolean;
  /** The service's own feature modules. */
  modules: NonNullable<ModuleMetadata['imports']>;
}

/**
 * The root module of a Nest service on the broker: its core (config, health, Prisma, token checks),
 * the client address the gateway vouches for, its AMQP connection, outbox, RPC and event transport,
 * then its own modules. `forRoot(config, options)` wires it from the validated config.
 */
export function eventServiceModule<Config extends EventServiceConfig>(name: ServiceName, Prisma: PrismaClass, wire: EventServiceWiring | ((config: Config) => EventServiceWiring)) {
  @Module({})
  class AppModule {
    static forRoot(config: Config, options: ServiceCoreOptions = {}): DynamicModule {
      const wiring = typeof wire === 'function' ? wire(config) : wire;
      return {
        module: AppModule,
        imports: [
          ServiceCoreModule.forRoot(name, config, Prisma, options),
          ClientAddressModule.forRoot({ forwardingSecret: config.FORWARDING_SECRET }),
          MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: name, namePrefix: config.AMQP_NAME_PREFIX }),
          ...(wiring.outbox ? [OutboxModule.forRoot({ databaseUrl: config.DATABASE_URL })] : []),
          ...(wiring.audit ? [AuditModule.forRoot()] : []),
          RpcModule.forRoot(wiring.serves ? { serves: wiring.serves } : {}),
          EventTransportModule.forRoot(wiring.consumes),
          ...wiring.modules,
        ],
      };
    }
  }
  return AppModule;
}
