import type { DynamicModule } from '@nestjs/common';
import { type ConfigRule, loadConfig, SERVICES, type ServiceName } from '@school/config';
import { createLogger } from '@school/telemetry';
import type { z } from 'zod';
import { migrationDirectories, type ServiceMigrations } from './migrate-service.js';
import { runService, type RunServiceOptions } from './run-service.js';

interface BaseServiceConfig {
  HOST: string;
  PORT: number;
  LOG_LEVEL: string;
  ACCESS_LOG_SAMPLE_RATE: number;
  DATABASE_URL: string;
  MIGRATE_ON_START: boolean;
}

export interface StartServiceOptions<Shape extends z.ZodRawShape> {
  name: ServiceName;
  env: Shape;
  /** Rules over several variables (e.g. secrets required in production), checked with the values. */
  rules?: readonly ConfigRule<z.infer<z.ZodObject<Shape>>>[];
  module: (config: z.infer<z.ZodObject<Shape>>) => DynamicModule;
  /**
   * `new URL('../prisma/migrations', import.meta.url)` from the service's main module; a producer of
   * events adds the outbox's (`[own, OUTBOX_MIGRATIONS]` from `@school/messaging`).
   */
  migrations: ServiceMigrations;
  /** Start-up work after wiring and before listening (e.g. starting a connected microservice). */
  beforeListen?: RunServiceOptions['beforeListen'];
}

/** A service's whole main(): validated config, JSON logger, migrations of its own schema, listen. */
export async function startService<Shape extends z.ZodRawShape>(options: StartServiceOptions<Shape>) {
  const config = loadConfig(options.env, { role: options.name, ...(options.rules && { rules: options.rules }) });
  const base = config as unknown as BaseServiceConfig;
  const logger = createLogger({ service: options.name, level: base.LOG_LEVEL });
  return runService(options.module(config), {
    name: options.name,
    host: base.HOST,
    port: base.PORT,
    logger,
    accessLogSampleRate: base.ACCESS_LOG_SAMPLE_RATE,
    ...(options.beforeListen && { beforeListen: options.beforeListen }),
    ...(base.MIGRATE_ON_START && {
      migrations: {
        databaseUrl: base.DATABASE_URL,
        schema: SERVICES[options.name].schema,
        migrationsDir: migrationDirectories(options.migrations),
      },
    }),
  });
}
