import { type DynamicModule, type INestApplicationContext, type ModuleMetadata, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../config.module.js';
import { DatabaseModule } from '../database.module.js';
import { ReadinessRegistry } from '../readiness.js';

type PrismaClass = Parameters<typeof DatabaseModule.forRoot>[0];

export interface UseCaseContextOptions {
  /** The service's generated Prisma client class, as its repositories inject it. */
  Prisma: PrismaClass;
  /** A migrated test schema or database (`migratedTestSchema`, `createTestDatabase` of `@school/testing`). */
  databaseUrl: string;
  schema: string;
  /** What `APP_CONFIG` holds, for providers that read the service's configuration. */
  config?: object;
  /** The context's own providers (use cases, repositories) and what else they need (`Outbox`, `AuditRecorder`, `Inbox`). */
  providers: NonNullable<ModuleMetadata['providers']>;
  imports?: ModuleMetadata['imports'];
}

@Module({})
class UseCaseModule {}

@Module({ providers: [ReadinessRegistry], exports: [ReadinessRegistry] })
class ReadinessModule {}

/**
 * A "medium" test's world (docs/testing.md): one context's real use cases and repositories with
 * the service's real Prisma client, UnitOfWork and schema, over a migrated database, and nothing
 * else: no HTTP server, guards, pipes or broker. Close it to disconnect.
 */
export function useCaseContext(options: UseCaseContextOptions): Promise<INestApplicationContext> {
  const root: DynamicModule = {
    module: UseCaseModule,
    imports: [
      ConfigModule.forRoot(options.config ?? {}),
      { module: ReadinessModule, global: true },
      DatabaseModule.forRoot(options.Prisma, { databaseUrl: options.databaseUrl, schema: options.schema, maxConnections: 4 }),
      ...(options.imports ?? []),
    ],
    providers: options.providers,
  };
  return NestFactory.createApplicationContext(root, { logger: false, abortOnError: false });
}
