import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testDatabaseUrl } from './database.js';

export interface MigrationDriftOptions {
  /** The folder of migration folders, as `prisma migrate` reads it. */
  migrationsDir: string;
  /** The schema.prisma (or another .prisma file) the migrations must build. */
  prismaSchemaPath: string;
  /** The server on which the shadow database is created and dropped; the tests' DATABASE_URL by default. */
  databaseUrl?: string;
}

const DIFF_SCRIPT = fileURLToPath(new URL('../bin/migration-diff.mjs', import.meta.url));
const EMPTY_MIGRATION = /^-- This is an empty migration\.\s*$/;

/**
 * What `prisma migrate diff --from-migrations <dir> --to-schema <file> --script` prints: the SQL a
 * database built by the migrations would still need to match the Prisma schema, or '' when they
 * agree. Prisma's own schema engine computes it (bin/migration-diff.mjs), on a shadow database it
 * creates and drops.
 */
export async function migrationDrift(options: MigrationDriftOptions): Promise<string> {
  const input = JSON.stringify({ ...options, databaseUrl: options.databaseUrl ?? testDatabaseUrl() });
  const { stdout } = await promisify(execFile)(process.execPath, [DIFF_SCRIPT, input], { maxBuffer: 16 * 1024 * 1024 });
  const script = stdout.trim();
  return EMPTY_MIGRATION.test(script) ? '' : script;
}

/** migrationDrift of a service's own `prisma/migrations` against its `prisma/schema.prisma`. */
export function serviceMigrationDrift(serviceDir: string): Promise<string> {
  return migrationDrift({ migrationsDir: join(serviceDir, 'prisma', 'migrations'), prismaSchemaPath: join(serviceDir, 'prisma', 'schema.prisma') });
}

/** The constraint a write broke (Postgres names it), or `accepted` when it went through. */
export function constraintOf(write: Promise<unknown>): Promise<string | undefined> {
  return write.then(
    () => 'accepted',
    (error: { constraint?: string }) => error.constraint,
  );
}
