import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, ensureTemplate, testDatabaseUrl, withConnection } from '../src/index.js';

async function migrationsDir(parent: string, name: string, sql: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(join(dir, '20260101000000_init'), { recursive: true });
  await writeFile(join(dir, '20260101000000_init', 'migration.sql'), sql);
  return dir;
}

const databaseExists = (name: string) =>
  withConnection(testDatabaseUrl(), async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length === 1);

describe('createTestDatabase', () => {
  let parent: string;
  let v1: string;
  let v2: string;

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'template-'));
    v1 = await migrationsDir(parent, 'v1', 'CREATE TABLE things (id int PRIMARY KEY);');
    v2 = await migrationsDir(parent, 'v2', 'CREATE TABLE things (id int PRIMARY KEY, name text);');
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('copies one migrated template into databases of their own, which drop() removes', async () => {
    const spec = { schema: 'probe', migrationsDirs: [v1] };
    const [a, b] = await Promise.all([createTestDatabase(spec, 'copy'), createTestDatabase(spec, 'copy')]);
    try {
      expect(a.database).toMatch(/^test_copy_[0-9a-f]{12}$/);
      expect(a.database).not.toBe(b.database);
      await withConnection(a.databaseUrl, (client) => client.query('INSERT INTO probe.things VALUES (1)'));
      const counts = await Promise.all(
        [a, b].map((db) => withConnection(db.databaseUrl, async (client) => (await client.query('SELECT count(*)::int AS n FROM probe.things')).rows[0].n)),
      );
      expect(counts).toEqual([1, 0]);
      const setting = await withConnection(a.databaseUrl, async (client) => (await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit);
      expect(setting).toBe('off');
    } finally {
      await a.drop();
      await b.drop();
    }
    expect(await databaseExists(a.database)).toBe(false);
    await a.drop();
  });

  it('keys the template by the migrations: a changed script gets another, the same scripts the same', async () => {
    const first = await ensureTemplate({ schema: 'probe', migrationsDirs: [v1] });
    const changed = await ensureTemplate({ schema: 'probe', migrationsDirs: [v2] });
    const copy = await migrationsDir(parent, 'v1-copy', 'CREATE TABLE things (id int PRIMARY KEY);');
    expect(changed).not.toBe(first);
    expect(await ensureTemplate({ schema: 'probe', migrationsDirs: [copy] })).toBe(first);
    expect(await databaseExists(first)).toBe(true);
    const db = await createTestDatabase({ schema: 'probe', migrationsDirs: [v2] });
    try {
      const columns = await withConnection(db.databaseUrl, async (client) =>
        (await client.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'probe' AND table_name = 'things' ORDER BY ordinal_position")).rows.map(
          (row) => row.column_name,
        ),
      );
      expect(columns).toEqual(['id', 'name']);
    } finally {
      await db.drop();
    }
  });
});
