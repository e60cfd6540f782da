import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createPrismaClient, type PrismaConnection } from '@school/prisma';
import { ReadinessRegistry } from './readiness.js';

interface PrismaLike {
  $queryRawUnsafe(query: string): Promise<unknown>;
  $disconnect(): Promise<void>;
}

type PrismaClass<Client extends PrismaLike> = abstract new (...args: never[]) => Client;

export const PRISMA_CLIENT = Symbol('PRISMA_CLIENT');

@Injectable()
class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(PRISMA_CLIENT) private readonly prisma: PrismaLike,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.prisma.$queryRawUnsafe('SELECT 1'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}

/**
 * The service's own Prisma client, injectable by its generated class (repositories ask for
 * `PrismaClient`), disconnected at shutdown and reported by /health/ready.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot<Client extends PrismaLike>(Client: PrismaClass<Client>, connection: PrismaConnection): DynamicModule {
    const client = createPrismaClient(Client as unknown as new (options: never) => Client, connection);
    return {
      module: DatabaseModule,
      providers: [{ provide: PRISMA_CLIENT, useValue: client }, { provide: Client, useValue: client }, DatabaseLifecycle],
      exports: [PRISMA_CLIENT, Client],
    };
  }
}
