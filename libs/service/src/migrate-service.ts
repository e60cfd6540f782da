import { fileURLToPath } from 'node:url';
import { databaseEnv, loadConfig, SERVICES, type ServiceName } from '@school/config';
import { applyMigrations, pendingMigrations } from '@school/prisma';
import { createLogger } from '@school/telemetry';

/** What `startService` applies at start-up: the service's own migrations and those of the libraries it uses. */
export type ServiceMigrations = URL | readonly URL[];

export function migrationDirectories(migrations: ServiceMigrations): string[] {
  return (migrations instanceof URL ? [migrations] : migrations).map((url) => fileURLToPath(url));
}

export const CHECK_FLAG = '--check';

/**
 * A service's `migrate` entry point: applies its migrations to its own schema with the applier
 * `startService` uses, then exits 0. With `--check` it changes nothing and exits 1 while any are
 * pending (a container that must wait for the migration job).
 */
export async function migrateService(name: ServiceName, migrations: ServiceMigrations, args: readonly string[] = process.argv.slice(2)): Promise<never> {
  const { DATABASE_URL } = loadConfig(databaseEnv);
  const logger = createLogger({ service: `${name}-migrate` });
  const options = { databaseUrl: DATABASE_URL, schema: SERVICES[name].schema, migrationsDir: migrationDirectories(migrations) };
  try {
    if (args.includes(CHECK_FLAG)) {
      const pending = await pendingMigrations(options);
      if (pending.length > 0) logger.warn({ pending }, `${pending.length} migration(s) pending in schema ${options.schema}`);
      else logger.info(`schema ${options.schema} is up to date`);
      process.exit(pending.length > 0 ? 1 : 0);
    }
    const { applied } = await applyMigrations({ ...options, logger });
    logger.info({ applied }, `schema ${options.schema}: ${applied.length} migration(s) applied`);
    process.exit(0);
  } catch (error) {
    logger.fatal({ err: error }, `${name} migrations failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
