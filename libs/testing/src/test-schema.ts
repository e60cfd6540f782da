import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { quoteIdent, testDatabaseUrl, withConnection } from './database.js';
import { createTestDatabase, serviceTemplate } from './template-database.js';

export interface TestSchema {
  /** The schema the test owns. */
  schema: string;
  /** The database holding it (without a `schema` parameter; pass `schema` alongside). */
  databaseUrl: string;
  /** Drops the schema (or the database holding it) and everything in it; safe to call twice. */
  drop(): Promise<void>;
}

export interface MigratedTestSchema extends TestSchema {
  /** The migrations applied to it, in order. */
  applied: string[];
}

const MAX_PREFIX = 40;

/** Creates an empty Postgres schema with a random suffix, for one test file to own. */
export async function createTestSchema(prefix: string): Promise<TestSchema> {
  const databaseUrl = testDatabaseUrl();
  const safePrefix = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, MAX_PREFIX) || 'test';
  const schema = `${safePrefix}_${randomBytes(6).toString('hex')}`;
  await withConnection(databaseUrl, (client) => client.query(`CREATE SCHEMA ${quoteIdent(schema)}`));
  return {
    schema,
    databaseUrl,
    drop: () => withConnection(databaseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`)).then(() => undefined),
  };
}

/**
 * A service's tables, migrated by the same code the service runs at start-up, in a database of
 * the test's own (`test_<prefix>_<random>`) copied from a template migrated once (see
 * `createTestDatabase`), in the service's own schema (`serviceTemplate`). `serviceDir` is the
 * service folder (path or file URL); a producer's tests that need the outbox add
 * `[OUTBOX_MIGRATIONS]` as `sharedMigrations`.
 */
export async function migratedTestSchema(serviceDir: string | URL, prefix = 'svc', sharedMigrations: readonly URL[] = []): Promise<MigratedTestSchema> {
  const dir = serviceDir instanceof URL ? fileURLToPath(serviceDir) : serviceDir;
  const template = serviceTemplate(dir, sharedMigrations);
  const { schema } = template;
  const db = await createTestDatabase(template, prefix);
  try {
    const { rows } = await withConnection(db.databaseUrl, (client) =>
      client.query<{ migration_name: string }>(`SELECT migration_name FROM ${quoteIdent(schema)}._prisma_migrations ORDER BY started_at, migration_name`),
    );
    return { schema, databaseUrl: db.databaseUrl, drop: db.drop, applied: rows.map((row) => row.migration_name) };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
