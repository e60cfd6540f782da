import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { readMigrationDirectories, scriptMatchesChecksum, type MigrationFile } from './migration-files.js';

export interface MigrationLogger {
  info(message: string): void;
}

export interface ApplyMigrationsOptions {
  databaseUrl: string;
  /** The Postgres schema that receives the tables and its own `_prisma_migrations`. */
  schema: string;
  /**
   * A Prisma migrations directory (`<timestamp>_<name>/migration.sql` folders), or several: the
   * service's own and those of the libraries it uses (the outbox's), applied together in name order.
   */
  migrationsDir: string | readonly string[];
  logger?: MigrationLogger;
}

export interface ApplyMigrationsResult {
  /** Names of the migrations applied by this call, in order; empty when the schema was up to date. */
  applied: string[];
}

/** A migration history this applier refuses to build on; `migration` names the culprit. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message);
  }
}

/** A row of Prisma Migrate's `_prisma_migrations` table, as the applier reads it. */
export interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  logs: string | null;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

// Prisma Migrate's own advisory lock key; ours pairs it with the schema so services migrate in parallel.
const PRISMA_MIGRATE_LOCK = 72707369;

/**
 * Applies the pending migrations of `migrationsDir` to `schema` and records them in
 * `<schema>._prisma_migrations` exactly as `prisma migrate deploy` does (same table, checksums,
 * failed-migration rule), so a deployment with the Prisma CLI sees the same history.
 * Concurrent callers for one schema are serialised: one applies, the others then find nothing to do.
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const files = await readMigrationDirectories(typeof options.migrationsDir === 'string' ? [options.migrationsDir] : options.migrationsDir);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  // A dropped connection also fails the query in flight; that rejection is the error reported.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [PRISMA_MIGRATE_LOCK, schemaLockKey(options.schema)]);
    try {
      return await applyLocked(client, files, options);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [PRISMA_MIGRATE_LOCK, schemaLockKey(options.schema)]);
    }
  } finally {
    await client.end();
  }
}

async function applyLocked(client: pg.Client, files: MigrationFile[], { schema, logger }: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const table = `${quoteIdent(schema)}."_prisma_migrations"`;
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
  await ensureMigrationsTable(client, schema, table);

  const { rows } = await client.query<MigrationRow>(`SELECT id, checksum, migration_name, logs, started_at, finished_at, rolled_back_at FROM ${table} ORDER BY started_at`);
  assertNoFailedMigration(rows);
  assertAppliedUnchanged(rows, files);

  const live = new Set(rows.filter((row) => row.rolled_back_at === null).map((row) => row.migration_name));
  const applied: string[] = [];
  for (const file of files.filter((candidate) => !live.has(candidate.name))) {
    logger?.info(`applying migration ${file.name} to schema ${schema}`);
    await applyOne(client, schema, table, file);
    applied.push(file.name);
  }
  return { applied };
}

/** The table Prisma's schema engine creates (sql-schema-connector, postgres flavour), in the service's schema. */
async function ensureMigrationsTable(client: pg.Client, schema: string, table: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  if (rows.some((row) => row.name === '_prisma_migrations')) return;
  if (rows.length > 0) {
    // Prisma's P3005: a schema with tables but no migration history is not ours to migrate.
    throw new MigrationError(
      `Schema "${schema}" is not empty (${rows.map((row) => row.name).join(', ')}) but has no _prisma_migrations table; ` +
        'baseline it (prisma migrate resolve --applied) or start from an empty schema',
    );
  }
  await client.query(`
    CREATE TABLE ${table} (
        id                      VARCHAR(36) PRIMARY KEY NOT NULL,
        checksum                VARCHAR(64) NOT NULL,
        finished_at             TIMESTAMPTZ,
        migration_name          VARCHAR(255) NOT NULL,
        logs                    TEXT,
        rolled_back_at          TIMESTAMPTZ,
        started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
        applied_steps_count     INTEGER NOT NULL DEFAULT 0
    )`);
}

/** Prisma's P3009: after a failed migration nothing more is applied until someone resolves it. */
function assertNoFailedMigration(rows: MigrationRow[]): void {
  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  const first = failed[0];
  if (!first) return;
  const details = failed
    .map((row) => {
      const logs = row.logs?.trim() ? ` with the following logs:\n${row.logs.trim()}` : '';
      return `The \`${row.migration_name}\` migration started at ${row.started_at.toISOString()} failed${logs}`;
    })
    .join('\n');
  throw new MigrationError(
    `Found failed migrations in the target database, new migrations will not be applied ` +
      `(resolve them with prisma migrate resolve, see https://pris.ly/d/migrate-resolve).\n${details}`,
    first.migration_name,
  );
}

function assertAppliedUnchanged(rows: MigrationRow[], files: MigrationFile[]): void {
  const byName = new Map(files.map((file) => [file.name, file]));
  for (const row of rows) {
    if (row.finished_at === null || row.rolled_back_at !== null) continue;
    const file = byName.get(row.migration_name);
    if (file && !scriptMatchesChecksum(file.script, row.checksum)) {
      throw new MigrationError(
        `Migration \`${row.migration_name}\` was modified after it was applied ` +
          `(recorded checksum ${row.checksum}, file now ${file.checksum}); add a new migration instead of editing it`,
        row.migration_name,
      );
    }
  }
}

/**
 * Prisma's sequence: record the start (committed on its own, so a failure stays visible), run the
 * script, count its one step and stamp finished_at. Script and bookkeeping of success share a
 * transaction, so a crash cannot leave an applied script recorded as failed.
 */
async function applyOne(client: pg.Client, schema: string, table: string, file: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query(`INSERT INTO ${table} (id, checksum, migration_name) VALUES ($1, $2, $3)`, [id, file.checksum, file.name]);
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    await client.query(file.script);
    await client.query(`UPDATE ${table} SET applied_steps_count = applied_steps_count + 1, finished_at = clock_timestamp() WHERE id = $1`, [id]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const logs = failureLogs(file.name, error);
    // If even this fails (connection lost) the row still shows the migration as failed.
    await client.query(`UPDATE ${table} SET logs = $2 WHERE id = $1`, [id, logs]).catch(() => undefined);
    throw new MigrationError(logs, file.name);
  }
}

function failureLogs(name: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return [
    `Migration \`${name}\` failed to apply. New migrations cannot be applied before the error is recovered from.`,
    typeof code === 'string' ? `Database error code: ${code}` : undefined,
    `Database error:\n${message}`,
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
}

/** A stable 32-bit key per schema name (the second half of the two-key advisory lock). */
function schemaLockKey(schema: string): number {
  return createHash('sha256').update(schema).digest().readInt32BE(0);
}

export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
