import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { applyMigrations } from '@school/prisma';
import { createTestSchema, migratedTestSchema, migrationDrift, quoteIdent, withConnection, type MigratedTestSchema } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');
const migrationsDir = join(serviceDir, 'prisma', 'migrations');
const UNIQUE_LIVE_PHONE_MIGRATION = '20261201000000_unique_live_phone';

interface UserRow {
  id: number;
  phone: string | null;
  phone_verified_at: Date | null;
}

function insertUser(databaseUrl: string, schema: string, user: { phone: string | null; verifiedAt?: Date | null; deletedAt?: Date | null }) {
  return withConnection(databaseUrl, async (client) => {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO ${quoteIdent(schema)}.users (public_id, email, name, role, phone, phone_verified_at, deleted_at, updated_at)
       VALUES ($1, $2, 'Someone', 'customer', $3, $4, $5, now()) RETURNING id`,
      [randomUUID(), `${randomUUID()}@example.com`, user.phone, user.verifiedAt ?? null, user.deletedAt ?? null],
    );
    return rows[0]!.id;
  });
}

const constraintOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { constraint?: string }) => error.constraint,
  );

describe('identity migrations', () => {
  let db: MigratedTestSchema;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'identity_drift');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('build exactly the tables prisma/schema.prisma describes', async () => {
    expect(await migrationDrift({ migrationsDir: join(serviceDir, 'prisma', 'migrations'), prismaSchemaPath: join(serviceDir, 'prisma', 'schema.prisma') })).toBe('');
  });

  // The rules the SQL adds beyond schema.prisma; the service maps these index names to its errors.
  describe('users rules', () => {
    beforeEach(async () => {
      await withConnection(db.databaseUrl, (client) => client.query(`DELETE FROM ${quoteIdent(db.schema)}.users`));
    });

    it('refuses a second live account with the same phone', async () => {
      await insertUser(db.databaseUrl, db.schema, { phone: '+9779800000001' });
      expect(await constraintOf(insertUser(db.databaseUrl, db.schema, { phone: '+9779800000001' }))).toBe('users_phone_live_key');
    });

    it('lets soft-deleted accounts share a phone with a live one, and any number of accounts have none', async () => {
      await insertUser(db.databaseUrl, db.schema, { phone: '+9779800000002', deletedAt: new Date() });
      await insertUser(db.databaseUrl, db.schema, { phone: '+9779800000002', deletedAt: new Date() });
      expect(await constraintOf(insertUser(db.databaseUrl, db.schema, { phone: '+9779800000002' }))).toBe('accepted');
      expect(await constraintOf(insertUser(db.databaseUrl, db.schema, { phone: null }))).toBe('accepted');
      expect(await constraintOf(insertUser(db.databaseUrl, db.schema, { phone: null }))).toBe('accepted');
    });
  });

  describe(`${UNIQUE_LIVE_PHONE_MIGRATION} on a database that already holds duplicates`, () => {
    let earlierDir: string;

    beforeAll(async () => {
      earlierDir = await mkdtemp(join(tmpdir(), 'identity-migrations-'));
      for (const entry of await readdir(migrationsDir)) {
        if (entry < UNIQUE_LIVE_PHONE_MIGRATION) await cp(join(migrationsDir, entry), join(earlierDir, entry), { recursive: true });
      }
    });

    afterAll(async () => {
      await rm(earlierDir, { recursive: true, force: true });
    });

    it('keeps each number on the account that verified it, else on the oldest, and clears it on the others', async () => {
      const old = await createTestSchema('identity_phone_dups');
      try {
        await applyMigrations({ databaseUrl: old.databaseUrl, schema: old.schema, migrationsDir: earlierDir });
        const insert = (phone: string | null, extra: { verifiedAt?: Date; deletedAt?: Date } = {}) => insertUser(old.databaseUrl, old.schema, { phone, ...extra });
        const verified = new Date('2026-01-01T00:00:00Z');
        // +01: the newer account verified it.
        const unverifiedOlder = await insert('+9779800000001');
        const verifiedNewer = await insert('+9779800000001', { verifiedAt: verified });
        // +02: nobody verified it; the oldest keeps it.
        const oldest = await insert('+9779800000002');
        const newer = await insert('+9779800000002');
        const newest = await insert('+9779800000002');
        // +03: a soft-deleted holder is no duplicate; +04: a single holder.
        const deleted = await insert('+9779800000003', { deletedAt: new Date() });
        const live = await insert('+9779800000003', { verifiedAt: verified });
        const single = await insert('+9779800000004');

        const { applied } = await applyMigrations({ databaseUrl: old.databaseUrl, schema: old.schema, migrationsDir });
        expect(applied[0]).toBe(UNIQUE_LIVE_PHONE_MIGRATION);

        const rows = await withConnection(old.databaseUrl, (client) =>
          client.query<UserRow>(`SELECT id, phone, phone_verified_at FROM ${quoteIdent(old.schema)}.users`).then((result) => result.rows),
        );
        const phoneOf = (id: number) => rows.find((row) => row.id === id)!;
        expect(phoneOf(verifiedNewer)).toMatchObject({ phone: '+9779800000001', phone_verified_at: verified });
        expect(phoneOf(unverifiedOlder)).toMatchObject({ phone: null, phone_verified_at: null });
        expect(phoneOf(oldest).phone).toBe('+9779800000002');
        expect(phoneOf(newer).phone).toBeNull();
        expect(phoneOf(newest).phone).toBeNull();
        expect(phoneOf(deleted).phone).toBe('+9779800000003');
        expect(phoneOf(live)).toMatchObject({ phone: '+9779800000003', phone_verified_at: verified });
        expect(phoneOf(single).phone).toBe('+9779800000004');
        expect(await constraintOf(insert('+9779800000004'))).toBe('users_phone_live_key');
      } finally {
        await old.drop();
      }
    });
  });
});
