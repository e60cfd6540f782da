import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestSchema, quoteIdent, schemaDrift, withConnection, type TestSchema } from '../src/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'drift');
const prismaSchemaPath = join(fixtures, 'schema.prisma');

describe('schemaDrift', () => {
  let db: TestSchema;
  const run = (sql: string) =>
    withConnection(db.databaseUrl, async (client) => {
      await client.query(`SET search_path TO ${quoteIdent(db.schema)}`);
      await client.query(sql);
    });
  const drift = (path = prismaSchemaPath) => schemaDrift({ databaseUrl: db.databaseUrl, schema: db.schema, prismaSchemaPath: path });

  beforeEach(async () => {
    db = await createTestSchema('drift_test');
    // The SQL Prisma's engine writes for schema.prisma, plus a partial index, an expression index
    // and a check constraint.
    await run(await readFile(join(fixtures, 'init.sql'), 'utf8'));
  });

  afterEach(async () => {
    await db.drop();
  });

  it('finds none between schema.prisma and the SQL Prisma generates for it', async () => {
    expect(await drift()).toEqual([]);
  });

  it('ignores _prisma_migrations', async () => {
    await run('CREATE TABLE _prisma_migrations (id varchar(36) PRIMARY KEY)');
    expect(await drift()).toEqual([]);
  });

  describe('with a schema.prisma edited after the SQL was written', () => {
    let dir: string;
    const edited = async (edit: (schema: string) => string) => {
      const path = join(dir, 'schema.prisma');
      await writeFile(path, edit(await readFile(prismaSchemaPath, 'utf8')));
      return drift(path);
    };

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'drift-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('reports a field whose column the SQL lacks', async () => {
      const result = await edited((s) => s.replace('  tags      String[]\n', '  tags      String[]\n  locale    String @default("en") @map("locale_code")\n'));
      expect(result).toEqual(['column accounts.locale_code (Account.locale) is missing']);
    });

    it('reports a model without a table, and a table without a model', async () => {
      const result = await edited((s) => s.replace('@@map("sessions")', '@@map("login_sessions")'));
      expect(result).toEqual([
        'table "login_sessions" (model Session) is missing',
        'table "sessions" exists but no model maps to it',
      ]);
    });

    it('reports a changed enum', async () => {
      const result = await edited((s) => s.replace('  staff\n', '  staff\n  guest\n'));
      expect(result).toEqual(['enum "role" has values (admin, staff, CUSTOMER), schema.prisma expects (admin, staff, guest, CUSTOMER)']);
    });

    it('reports a unique index schema.prisma declares and the SQL lacks', async () => {
      const result = await edited((s) => s.replace('  token     String  @db.Char(64)', '  token     String  @unique @db.Char(64)'));
      expect(result).toEqual(['table sessions: unique index on (token) is missing (Prisma would name it "sessions_token_key")']);
    });
  });

  describe('with SQL that departs from schema.prisma', () => {
    const cases: Array<[string, string, string[]]> = [
      ['a narrower varchar', 'ALTER TABLE accounts ALTER COLUMN email TYPE varchar(32)', [
        'column accounts.email: type is character varying(32), schema.prisma expects character varying(255)',
      ]],
      ['timestamp without time zone', 'ALTER TABLE accounts ALTER COLUMN created_at TYPE timestamp(3)', [
        'column accounts.created_at: type is timestamp without time zone(3), schema.prisma expects timestamp with time zone(3)',
      ]],
      ['another precision', 'ALTER TABLE accounts ALTER COLUMN seen_at TYPE timestamp(6)', [
        'column accounts.seen_at: type is timestamp without time zone(6), schema.prisma expects timestamp without time zone(3)',
      ]],
      ['integer instead of bigint', 'ALTER TABLE sessions ALTER COLUMN size TYPE integer', [
        'column sessions.size: type is integer, schema.prisma expects bigint',
      ]],
      ['text instead of an enum', 'DROP INDEX accounts_one_admin_key; ALTER TABLE accounts ALTER COLUMN role DROP DEFAULT, ALTER COLUMN role TYPE text', [
        'column accounts.role: type is text, schema.prisma expects enum role',
        'column accounts.role: has no default, schema.prisma expects CUSTOMER',
      ]],
      ['a nullable column', 'ALTER TABLE sessions ALTER COLUMN token DROP NOT NULL', [
        'column sessions.token: is nullable, schema.prisma expects NOT NULL',
      ]],
      ['a NOT NULL column', "UPDATE accounts SET nickname = 'x'; ALTER TABLE accounts ALTER COLUMN nickname SET NOT NULL", [
        'column accounts.nickname: is NOT NULL, schema.prisma expects nullable',
      ]],
      ['a missing now() default', 'ALTER TABLE accounts ALTER COLUMN created_at DROP DEFAULT', [
        'column accounts.created_at: default is no default, schema.prisma expects now()',
      ]],
      ['another literal default', 'ALTER TABLE accounts ALTER COLUMN score SET DEFAULT 2', [
        'column accounts.score: default is 2, schema.prisma expects 1.5',
      ]],
      ['a default schema.prisma lacks', "ALTER TABLE sessions ALTER COLUMN token SET DEFAULT 'x'", [
        "column sessions.token: has default 'x'::bpchar, schema.prisma expects none",
      ]],
      ['an extra column', 'ALTER TABLE sessions ADD COLUMN note text', [
        'column sessions.note exists but no field of Session maps to it',
      ]],
      ['a dropped unique index', 'DROP INDEX accounts_email_role_key', [
        'table accounts: unique index on (email, role) is missing (Prisma would name it "accounts_email_role_key")',
      ]],
      ['a renamed index', 'ALTER INDEX sessions_by_account RENAME TO sessions_account_idx', [
        'table sessions: index on (account_id) is named "sessions_account_idx", schema.prisma expects "sessions_by_account"',
      ]],
      ['an ascending index where schema.prisma sorts descending', 'DROP INDEX accounts_created_at_idx; CREATE INDEX accounts_created_at_idx ON accounts (created_at)', [
        'table accounts: index on (created_at DESC) is missing (Prisma would name it "accounts_created_at_idx")',
        'table accounts: index on (created_at) "accounts_created_at_idx" exists but schema.prisma does not declare it',
      ]],
      ['a btree where schema.prisma wants a hash index', 'DROP INDEX sessions_token_idx; CREATE INDEX sessions_token_idx ON sessions (token)', [
        'table sessions: index on (token) using hash is missing (Prisma would name it "sessions_token_idx")',
        'table sessions: index on (token) "sessions_token_idx" exists but schema.prisma does not declare it',
      ]],
      ['an extra plain index', 'CREATE INDEX accounts_active_idx ON accounts (active)', [
        'table accounts: index on (active) "accounts_active_idx" exists but schema.prisma does not declare it',
      ]],
      ['another primary key', 'ALTER TABLE "Group" DROP CONSTRAINT "Group_pkey" CASCADE, ADD CONSTRAINT "Group_pkey" PRIMARY KEY (id, name)', [
        'table Group: primary key is (id, name), schema.prisma expects (id)',
      ]],
      ['a foreign key with another delete rule', 'ALTER TABLE sessions DROP CONSTRAINT sessions_account_id_fkey, ADD CONSTRAINT sessions_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id)', [
        'table sessions: foreign key "sessions_account_id_fkey" deletes with NoAction, schema.prisma expects Cascade',
      ]],
      ['a missing foreign key', 'ALTER TABLE sessions DROP CONSTRAINT sessions_account_id_fkey', [
        'table sessions: foreign key (account_id) -> accounts(id) for Session.account is missing',
      ]],
      ['an extra enum', "CREATE TYPE mood AS ENUM ('ok')", ['enum "mood" exists but schema.prisma has no enum for it']],
      ['a missing table', 'DROP TABLE "_AccountToGroup"; DROP TABLE "Group"', ['table "Group" (model Group) is missing']],
    ];

    it.each(cases)('reports %s', async (_name, sql, expected) => {
      await run(sql);
      expect(await drift()).toEqual(expected);
    });
  });
});
