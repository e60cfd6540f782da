import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { migratedTestSchema, quoteIdent, schemaDrift, withConnection, type MigratedTestSchema } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');

describe('reference-data migrations', () => {
  let db: MigratedTestSchema;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'reference_data_drift');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('build exactly the tables prisma/schema.prisma describes', async () => {
    const prismaSchemaPath = join(serviceDir, 'prisma', 'schema.prisma');
    expect(await schemaDrift({ databaseUrl: db.databaseUrl, schema: db.schema, prismaSchemaPath })).toEqual([]);
  });

  // The rules the SQL adds beyond schema.prisma; the service maps these constraint names to its errors.
  describe('academic_sessions rules', () => {
    const insert = (name: string, startDate: string, endDate: string, isCurrent = false) =>
      withConnection(db.databaseUrl, (client) =>
        client.query(
          `INSERT INTO ${quoteIdent(db.schema)}.academic_sessions (public_id, name, start_date, end_date, is_current, updated_at)
           VALUES ($1, $2, $3, $4, $5, now())`,
          [randomUUID(), name, startDate, endDate, isCurrent],
        ),
      );
    const constraintOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: { constraint?: string }) => error.constraint,
      );

    beforeEach(async () => {
      await withConnection(db.databaseUrl, (client) => client.query(`DELETE FROM ${quoteIdent(db.schema)}.academic_sessions`));
    });

    it('refuses a name that differs only in letter case', async () => {
      await insert('2081/82', '2024-04-13', '2025-04-13');
      await insert('Term A', '2025-04-14', '2026-04-13');
      expect(await constraintOf(insert('term a', '2026-04-14', '2027-04-13'))).toBe('academic_sessions_name_lower_key');
    });

    it('allows at most one current session', async () => {
      await insert('One', '2024-04-13', '2025-04-13', true);
      await insert('Two', '2025-04-14', '2026-04-13', false);
      expect(await constraintOf(insert('Three', '2026-04-14', '2027-04-13', true))).toBe('academic_sessions_one_current_key');
    });

    it('refuses an end date that is not after the start date', async () => {
      expect(await constraintOf(insert('Zero length', '2025-01-01', '2025-01-01'))).toBe('academic_sessions_dates_check');
      expect(await constraintOf(insert('Inverted', '2025-01-02', '2025-01-01'))).toBe('academic_sessions_dates_check');
      expect(await constraintOf(insert('One day', '2025-01-01', '2025-01-02'))).toBe('accepted');
    });
  });
});
