import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A fresh schema name nobody else uses; `drop()` removes it. */
export function randomSchema(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export async function sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** A temporary Prisma migrations directory the test can add folders to. */
export async function migrationsDirectory(): Promise<{
  dir: string;
  add(name: string, script: string): Promise<void>;
  remove(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  await writeFile(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  return {
    dir,
    async add(name, script) {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, 'migration.sql'), script);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
