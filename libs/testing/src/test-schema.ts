import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations } from '@school/prisma';
import { quoteIdent, testDatabaseUrl, withConnection } from './database.js';

export interface TestSchema {
  /** A schema no other test run uses: `<prefix>_<random>`. */
  schema: string;
  /** The database holding it (without a `schema` parameter; pass `schema` alongside). */
  databaseUrl: string;
  /** Drops the schema and everything in it; safe to call twice. */
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
  const safePrefix =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, MAX_PREFIX) || 'test';
  const schema = `${safePrefix}_${randomBytes(6).toString('hex')}`;
  await withConnection(databaseUrl, (client) => client.query(`CREATE SCHEMA ${quoteIdent(schema)}`));
  return {
    schema,
    databaseUrl,
    drop: () => withConnection(databaseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`)).then(() => undefined),
  };
}

/**
 * A fresh schema holding a service's tables: its `prisma/migrations` applied by the same code the
 * service runs at start-up. `serviceDir` is the service folder (path or file URL); a producer's
 * tests that need the outbox add `[OUTBOX_MIGRATIONS]` as `sharedMigrations`. Replayed rather than
 * copied from a template (`createTestDatabase`): a service's few migrations applied to an empty
 * schema cost less than copying a database, which copies Postgres's own catalog too (docs/testing.md).
 */
export async function migratedTestSchema(serviceDir: string | URL, prefix = 'svc', sharedMigrations: readonly URL[] = []): Promise<MigratedTestSchema> {
  const dir = serviceDir instanceof URL ? fileURLToPath(serviceDir) : serviceDir;
  const testSchema = await createTestSchema(prefix);
  try {
    const { applied } = await applyMigrations({
      databaseUrl: testSchema.databaseUrl,
      schema: testSchema.schema,
      migrationsDir: [join(dir, 'prisma', 'migrations'), ...sharedMigrations.map((url) => fileURLToPath(url))],
    });
    return { ...testSchema, applied };
  } catch (error) {
    await testSchema.drop();
    throw error;
  }
}
