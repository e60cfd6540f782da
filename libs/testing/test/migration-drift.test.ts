import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { migrationDrift, testDatabaseUrl, withConnection } from '../src/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'drift');
const prismaSchemaPath = join(fixtures, 'schema.prisma');
const migrationsDir = join(fixtures, 'migrations');

const shadowDatabases = () =>
  withConnection(testDatabaseUrl(), (client) => client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'")).then(
    (result) => result.rows[0]!.n,
  );

describe("migrationDrift (Prisma's schema engine, WebAssembly build)", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drift-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The fixture's migrations plus one more holding `sql`. */
  const withMigration = async (sql: string) => {
    await cp(migrationsDir, join(dir, 'migrations'), { recursive: true });
    await mkdir(join(dir, 'migrations', '20260102000000_departure'));
    await writeFile(join(dir, 'migrations', '20260102000000_departure', 'migration.sql'), sql);
    return migrationDrift({ migrationsDir: join(dir, 'migrations'), prismaSchemaPath });
  };
  const withSchema = async (edit: (schema: string) => string) => {
    await writeFile(join(dir, 'schema.prisma'), edit(await readFile(prismaSchemaPath, 'utf8')));
    return migrationDrift({ migrationsDir, prismaSchemaPath: join(dir, 'schema.prisma') });
  };

  it('finds none between schema.prisma and migrations holding its SQL, partial and expression indexes and checks included', async () => {
    expect(await migrationDrift({ migrationsDir, prismaSchemaPath })).toBe('');
  });

  it('runs each migration whole (a ; inside a comment or a DO block) and drops its shadow database', async () => {
    const before = await shadowDatabases();
    const script = await withMigration(`-- a comment; with a semicolon
DO $$ BEGIN PERFORM 1; END $$;
ALTER TABLE sessions ADD COLUMN note text;`);
    expect(script).toMatch(/ALTER TABLE "sessions" DROP COLUMN "note"/);
    expect(await shadowDatabases()).toBeLessThanOrEqual(before);
  });

  it('reports a field whose column the migrations lack', async () => {
    const script = await withSchema((s) => s.replace('  tags      String[]\n', '  tags      String[]\n  locale    String @default("en") @map("locale_code")\n'));
    expect(script).toMatch(/ALTER TABLE "accounts" ADD COLUMN\s+"locale_code" TEXT NOT NULL DEFAULT 'en'/);
  });

  it('reports a model without a table', async () => {
    const script = await withSchema((s) => s.replace('@@map("sessions")', '@@map("login_sessions")'));
    expect(script).toMatch(/CREATE TABLE "login_sessions"/);
    expect(script).toMatch(/DROP TABLE "sessions"/);
  });

  it.each([
    ['a narrower varchar', 'ALTER TABLE accounts ALTER COLUMN email TYPE varchar(32)', /ALTER COLUMN "email" SET DATA TYPE VARCHAR\(255\)/],
    ['a dropped unique index', 'DROP INDEX accounts_email_role_key', /CREATE UNIQUE INDEX "accounts_email_role_key"/],
    [
      'a foreign key with another delete rule',
      'ALTER TABLE sessions DROP CONSTRAINT sessions_account_id_fkey, ADD CONSTRAINT sessions_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id)',
      /ON DELETE CASCADE/,
    ],
  ])('reports %s', async (_name, sql, expected) => {
    expect(await withMigration(sql)).toMatch(expected);
  });
});
