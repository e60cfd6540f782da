import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { createTestSchema, migratedTestSchema, testDatabaseUrl, withConnection } from '../src/index.js';

const schemaExists = (schema: string) =>
  withConnection(testDatabaseUrl(), async (client) => {
    const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    return rows.length === 1;
  });

describe('createTestSchema', () => {
  it('creates a schema of its own with a random suffix, and drop() removes it', async () => {
    const [a, b] = await Promise.all([createTestSchema('Feedback-Tests'), createTestSchema('Feedback-Tests')]);
    try {
      expect(a.schema).toMatch(/^feedback_tests_[0-9a-f]{12}$/);
      expect(a.schema).not.toBe(b.schema);
      expect(await schemaExists(a.schema)).toBe(true);
    } finally {
      await a.drop();
      await b.drop();
    }
    expect(await schemaExists(a.schema)).toBe(false);
    await a.drop();
  });
});

describe('migratedTestSchema', () => {
  it('applies a service’s prisma/migrations into a fresh schema', async () => {
    const serviceDir = await mkdtemp(join(tmpdir(), 'service-'));
    const migration = join(serviceDir, 'prisma', 'migrations', '20260101000000_init');
    await mkdir(migration, { recursive: true });
    await writeFile(join(migration, 'migration.sql'), 'CREATE TABLE things (id int PRIMARY KEY);');
    const db = await migratedTestSchema(serviceDir, 'svc_test');
    try {
      expect(db.applied).toEqual(['20260101000000_init']);
      const rows = await withConnection(db.databaseUrl, (client) => client.query(`SELECT count(*)::int AS n FROM "${db.schema}".things`));
      expect(rows.rows).toEqual([{ n: 0 }]);
    } finally {
      await db.drop();
      await rm(serviceDir, { recursive: true, force: true });
    }
  });
});
