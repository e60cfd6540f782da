import { type DynamicModule, Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ReadinessRegistry } from '@school/service';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import { RpcClient } from '../rpc/rpc-client.js';
import type { RpcContract } from '@school/contracts';
import { RpcServer, type RpcRequestHandler, type RpcRoute } from '../rpc/rpc-server.js';
import type { BrokerNames } from '../topology.js';
import { BROKER_NAMES } from './messaging.module.js';
import { nestMessagingLogger } from './nest-logger.js';
import { RPC_HANDLER_METADATA } from './rpc-handler.decorator.js';

export interface RpcModuleOptions {
  /** The contracts this service answers; each needs exactly one `@RpcHandler` method on a provider. */
  serves?: readonly RpcContract[];
  /** Requests handled at once per served contract. */
  prefetch?: number;
  /** Deadline of a call that does not set its own (DEFAULT_RPC_TIMEOUT_MS otherwise). */
  defaultTimeoutMs?: number;
}

const RPC_OPTIONS = Symbol('RPC_OPTIONS');
const DEFAULT_RPC_PREFETCH = 10;

@Injectable()
class RpcLifecycle implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private server: RpcServer | undefined;

  constructor(
    @Inject(RPC_OPTIONS) private readonly options: RpcModuleOptions,
    @Inject(BROKER_NAMES) private readonly names: BrokerNames,
    private readonly connection: AmqpConnection,
    private readonly client: RpcClient,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('rpc-client', async () => {
      if (!this.client.isReady()) throw new Error('RPC reply consumer not subscribed');
    });
    if ((this.options.serves ?? []).length > 0) {
      this.readiness.register('rpc-server', async () => {
        if (!this.server?.isConsuming()) throw new Error('not subscribed to the RPC queues');
      });
    }
  }

  /** Once every provider exists: finds the `@RpcHandler` methods and starts serving their queues. */
  onApplicationBootstrap(): void {
    const routes = this.routes();
    if (routes.length === 0) return;
    this.server = new RpcServer(this.connection, {
      prefix: this.names.prefix,
      routes,
      prefetch: this.options.prefetch ?? DEFAULT_RPC_PREFETCH,
      logger: nestMessagingLogger('RpcServer'),
    });
    this.server.start();
  }

  /** First shutdown phase: answer the requests in progress while their dependencies are open. */
  async onModuleDestroy(): Promise<void> {
    await this.server?.stop();
    await this.client.close();
  }

  private routes(): RpcRoute[] {
    const serves = this.options.serves ?? [];
    const found = new Map<string, RpcRoute[]>();
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object | null)) {
        const handler = instance[method];
        if (typeof handler !== 'function') continue;
        const contract = this.reflector.get<RpcContract | undefined>(RPC_HANDLER_METADATA, handler);
        if (!contract) continue;
        const routes = found.get(contract.name) ?? [];
        routes.push({ contract, handler: (handler as RpcRequestHandler).bind(instance) });
        found.set(contract.name, routes);
      }
    }
    const problems: string[] = [];
    for (const contract of serves) {
      const count = found.get(contract.name)?.length ?? 0;
      if (count !== 1) problems.push(`${contract.name} has ${count} @RpcHandler methods (needs exactly one)`);
    }
    for (const name of found.keys()) {
      if (!serves.some((contract) => contract.name === name)) problems.push(`@RpcHandler(${name}) is not listed in RpcModule.forRoot({ serves })`);
    }
    if (problems.length > 0) throw new Error(`RPC handlers: ${problems.join('; ')}`);
    return serves.map((contract) => found.get(contract.name)?.[0] as RpcRoute);
  }
}

/**
 * Request/reply over RabbitMQ (needs MessagingModule). Provides `RpcClient` everywhere (global):
 * `rpc.call(GEOGRAPHY_CHECK, request)` answers the contract's answer or rejects with
 * RpcUnavailableError (HTTP 503 SERVICE_UNAVAILABLE) or RpcContractError. With `serves`, it also
 * answers those contracts from the service's `@RpcHandler` methods, on the durable queues it owns.
 * /health/ready reports `rpc-client` (and `rpc-server` when serving).
 */
@Module({})
export class RpcModule {
  static forRoot(options: RpcModuleOptions = {}): DynamicModule {
    return {
      module: RpcModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: RPC_OPTIONS, useValue: options },
        {
          provide: RpcClient,
          useFactory: (connection: AmqpConnection, names: BrokerNames) =>
            new RpcClient(connection, {
              prefix: names.prefix,
              logger: nestMessagingLogger('RpcClient'),
              ...(options.defaultTimeoutMs !== undefined && { defaultTimeoutMs: options.defaultTimeoutMs }),
            }),
          inject: [AmqpConnection, BROKER_NAMES],
        },
        RpcLifecycle,
      ],
      exports: [RpcClient],
    };
  }
}
