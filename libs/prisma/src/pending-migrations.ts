import pg from 'pg';
import { readMigrationDirectories } from './migration-files.js';
import { quoteIdent, type ApplyMigrationsOptions } from './migrations.js';

/**
 * Names of the migrations not yet applied to `schema` (all of them when it has no history), without
 * changing anything: a process that must not start before a migration job has run checks this.
 */
export async function pendingMigrations(options: Omit<ApplyMigrationsOptions, 'logger'>): Promise<string[]> {
  const files = await readMigrationDirectories(typeof options.migrationsDir === 'string' ? [options.migrationsDir] : options.migrationsDir);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [`${quoteIdent(options.schema)}._prisma_migrations`]);
    if (!rows[0]?.exists) return files.map((file) => file.name);
    const applied = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM ${quoteIdent(options.schema)}."_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Set(applied.rows.map((row) => row.migration_name));
    return files.map((file) => file.name).filter((name) => !done.has(name));
  } finally {
    await client.end();
  }
}
