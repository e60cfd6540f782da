import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createPrismaClient, type PrismaConnection } from '@school/prisma';
import { ReadinessRegistry } from './readiness.js';
import { PRISMA_CLIENT, TRANSACTION_LIMITS, type TransactionalClient, type TransactionLimits, UnitOfWork } from './unit-of-work.js';

interface PrismaLike extends TransactionalClient {
  $queryRawUnsafe(query: string): Promise<unknown>;
  $disconnect(): Promise<void>;
}

type PrismaClass<Client extends PrismaLike> = abstract new (...args: never[]) => Client;

/**
 * The Postgres schema the service owns (contract §1), named once: the Prisma client is bound to it,
 * and repositories take their raw SQL's schema from here (`Prisma.raw(schema.sql)`), so a test
 * database and production run the same statements.
 */
export class DatabaseSchema {
  /** The quoted identifier, as raw SQL names the schema: `"identity"`. */
  readonly sql: string;

  constructor(readonly name: string) {
    this.sql = `"${name.replace(/"/g, '""')}"`;
  }
}

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
 * `PrismaClient`), disconnected at shutdown and reported by /health/ready; its schema
 * (DatabaseSchema) and its UnitOfWork.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot<Client extends PrismaLike>(Client: PrismaClass<Client>, connection: PrismaConnection, limits?: TransactionLimits): DynamicModule {
    const client = createPrismaClient(Client as unknown as new (options: never) => Client, connection);
    return {
      module: DatabaseModule,
      providers: [
        { provide: PRISMA_CLIENT, useValue: client },
        { provide: Client, useValue: client },
        { provide: DatabaseSchema, useValue: new DatabaseSchema(connection.schema) },
        ...(limits ? [{ provide: TRANSACTION_LIMITS, useValue: limits }] : []),
        UnitOfWork,
        DatabaseLifecycle,
      ],
      exports: [PRISMA_CLIENT, Client, DatabaseSchema, UnitOfWork],
    };
  }
}
