import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { applyMigrations, MigrationError, type MigrationRow } from '../src/index.js';
import { DATABASE_URL, dropSchema, migrationsDirectory, randomSchema, sql } from './support/fixtures.js';

interface Row extends MigrationRow {
  applied_steps_count: number;
}

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

describe('applyMigrations', () => {
  let schema: string;
  let migrations: Awaited<ReturnType<typeof migrationsDirectory>>;
  const run = () => applyMigrations({ databaseUrl: DATABASE_URL, schema, migrationsDir: migrations.dir });
  const history = () => sql<Row>(`SELECT * FROM "${schema}"._prisma_migrations ORDER BY started_at`);

  beforeEach(async () => {
    schema = randomSchema('mig_test');
    migrations = await migrationsDirectory();
    await migrations.add('20260102000000_second', 'CREATE TABLE second (id int PRIMARY KEY, first_id int REFERENCES first(id));\n');
    await migrations.add('20260101000000_first', 'CREATE TABLE first (id int PRIMARY KEY);\nINSERT INTO first VALUES (1);\n');
  });

  afterEach(async () => {
    await dropSchema(schema);
    await migrations.remove();
  });

  it('creates the schema, applies folders in name order and records them as Prisma does', async () => {
    const logged: string[] = [];
    const result = await applyMigrations({
      databaseUrl: DATABASE_URL,
      schema,
      migrationsDir: migrations.dir,
      logger: { info: (message) => logged.push(message) },
    });

    expect(result.applied).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(logged).toHaveLength(2);
    const tables = await sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
    expect(tables.map((t) => t.table_name)).toEqual(['_prisma_migrations', 'first', 'second']);

    const rows = await history();
    expect(rows.map((r) => r.migration_name)).toEqual(result.applied);
    for (const row of rows) {
      const script = await readFile(join(migrations.dir, row.migration_name, 'migration.sql'), 'utf8');
      expect(row.checksum).toBe(sha256(script));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.applied_steps_count).toBe(1);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
    }
  });

  it('creates _prisma_migrations with the columns of Prisma’s schema engine', async () => {
    await run();
    const columns = await sql(
      `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = $1 AND table_name = '_prisma_migrations'
        ORDER BY ordinal_position`,
      [schema],
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', length: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', length: 64, is_nullable: 'NO', column_default: null },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'migration_name', data_type: 'character varying', length: 255, is_nullable: 'NO', column_default: null },
      { column_name: 'logs', data_type: 'text', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'NO', column_default: 'now()' },
      { column_name: 'applied_steps_count', data_type: 'integer', length: null, is_nullable: 'NO', column_default: '0' },
    ]);
    const [pk] = await sql(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [`"${schema}"._prisma_migrations`]);
    expect(pk).toEqual({ conname: '_prisma_migrations_pkey' });
  });

  it('applies nothing the second time, and only the new folder after one is added', async () => {
    await run();
    expect(await run()).toEqual({ applied: [] });
    await migrations.add('20260103000000_third', 'ALTER TABLE first ADD COLUMN label text;');
    expect(await run()).toEqual({ applied: ['20260103000000_third'] });
    expect((await history()).map((r) => r.migration_name)).toEqual(['20260101000000_first', '20260102000000_second', '20260103000000_third']);
  });

  it('lets one of several concurrent callers apply each migration exactly once', async () => {
    // A slow first migration keeps the first caller inside the lock while the second arrives.
    await migrations.add('20260101000000_first', 'SELECT pg_sleep(0.5);\nCREATE TABLE first (id int PRIMARY KEY);\nINSERT INTO first VALUES (1);\n');

    const results = await Promise.all([run(), run(), run()]);

    const applied = results.flatMap((r) => r.applied).sort();
    expect(applied).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(results.filter((r) => r.applied.length === 0)).toHaveLength(2);
    expect(await history()).toHaveLength(2);
    expect(await sql(`SELECT id FROM "${schema}".first`)).toEqual([{ id: 1 }]);
  });

  it('refuses, naming the migration, when an applied migration was edited', async () => {
    await run();
    await writeFile(join(migrations.dir, '20260101000000_first', 'migration.sql'), 'CREATE TABLE first (id bigint PRIMARY KEY);\n');
    await migrations.add('20260103000000_third', 'CREATE TABLE third (id int);');

    const error = await run().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe('20260101000000_first');
    expect((error as Error).message).toMatch(/`20260101000000_first` was modified after it was applied/);
    expect(await sql(`SELECT to_regclass($1) AS t`, [`"${schema}".third`])).toEqual([{ t: null }]);
  });

  it('accepts an applied migration whose line endings were converted, as Prisma does', async () => {
    await run();
    const path = join(migrations.dir, '20260101000000_first', 'migration.sql');
    await writeFile(path, (await readFile(path, 'utf8')).replace(/\n/g, '\r\n'));
    expect(await run()).toEqual({ applied: [] });
  });

  it('records a failing migration as failed, rolls its statements back and refuses later runs (P3009)', async () => {
    await migrations.add('20260103000000_broken', 'CREATE TABLE partial (id int);\nSELECT * FROM no_such_table;\n');
    await migrations.add('20260104000000_after', 'CREATE TABLE after_broken (id int);');

    const error = await run().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe('20260103000000_broken');
    expect((error as Error).message).toMatch(/no_such_table/);
    const rows = await history();
    expect(rows.map((r) => [r.migration_name, r.finished_at === null])).toEqual([
      ['20260101000000_first', false],
      ['20260102000000_second', false],
      ['20260103000000_broken', true],
    ]);
    const failed = rows[2]!;
    expect(failed.applied_steps_count).toBe(0);
    expect(failed.rolled_back_at).toBeNull();
    expect(failed.logs).toMatch(/42P01/);
    expect(await sql(`SELECT to_regclass($1) AS t`, [`"${schema}".partial`])).toEqual([{ t: null }]);

    // Fixing the file does not help: someone has to resolve the failed row first, as with Prisma.
    await migrations.add('20260103000000_broken', 'CREATE TABLE partial (id int);\n');
    const again = await run().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(MigrationError);
    expect((again as Error).message).toMatch(/found failed migrations.*\n.*`20260103000000_broken` migration started at .* failed/i);
    expect(await history()).toHaveLength(3);

    // `prisma migrate resolve --rolled-back` sets rolled_back_at; then the migration is applied anew.
    await sql(`UPDATE "${schema}"._prisma_migrations SET rolled_back_at = now() WHERE id = $1`, [failed.id]);
    expect(await run()).toEqual({ applied: ['20260103000000_broken', '20260104000000_after'] });
  });

  it('refuses a schema that has tables but no migration history (P3005)', async () => {
    await sql(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".legacy (id int)`);
    await expect(run()).rejects.toThrow(/is not empty \(legacy\)/);
  });

  it('refuses a migrations directory locked to another provider', async () => {
    await writeFile(join(migrations.dir, 'migration_lock.toml'), 'provider = "mysql"\n');
    await expect(run()).rejects.toThrow(/provider "mysql"/);
  });
});
