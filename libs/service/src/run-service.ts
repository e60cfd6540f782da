import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { applyMigrations } from '@school/prisma';
import { ConfigError } from '@school/config';
import type { Logger } from '@school/telemetry';
import { createServiceApp, type ServiceAppOptions } from './bootstrap.js';

export interface RunServiceOptions extends ServiceAppOptions {
  name: string;
  host: string;
  port: number;
  /** Applied before the app starts; safe when several replicas start at once. */
  migrations?: { databaseUrl: string; schema: string; migrationsDir: string | readonly string[] };
  /** Start-up work after wiring and before listening (seeds, bootstrap accounts). */
  beforeListen?: (app: NestFastifyApplication) => Promise<void>;
}

/** Entry point of every service process: migrate, wire, listen; exit with one clear line if start-up fails. */
export async function runService(module: Type | DynamicModule, options: RunServiceOptions): Promise<NestFastifyApplication> {
  const { logger } = options;
  try {
    if (options.migrations) {
      const { applied } = await applyMigrations({ ...options.migrations, logger });
      if (applied.length > 0) logger.info({ applied }, `applied ${applied.length} migration(s)`);
    }
    const app = await createServiceApp(module, options);
    await options.beforeListen?.(app);
    await app.listen({ host: options.host, port: options.port });
    logger.info(`${options.name} listening on http://${options.host}:${options.port}`);
    return app;
  } catch (error) {
    exitOnStartFailure(logger, options.name, error);
  }
}

function exitOnStartFailure(logger: Logger, name: string, error: unknown): never {
  if (error instanceof ConfigError) {
    // A setting found wrong only once the database could be read: one line naming it, as at parse time.
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  logger.fatal({ err: error }, `${name} failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
