import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { constraintOf, type MigratedTestSchema, migratedTestSchema, quoteIdent, serviceMigrationDrift, withConnection } from '@school/testing';

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
    expect(await serviceMigrationDrift(serviceDir)).toBe('');
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

  // Geography names are unique whatever their letter case, in their scope (spec §4.7 rule 2); the
  // service maps these index names to GEOGRAPHY_NAME_TAKEN.
  describe('geography rules', () => {
    const run = (sql: string, values: unknown[] = []) => withConnection(db.databaseUrl, (client) => client.query(sql.replaceAll('$schema', quoteIdent(db.schema)), values));
    const province = (name: string) => run(`INSERT INTO $schema.provinces (public_id, name, updated_at) VALUES ($1, $2, now()) RETURNING id`, [randomUUID(), name]);
    const district = (provinceId: number, name: string) =>
      run(`INSERT INTO $schema.districts (public_id, province_id, name, updated_at) VALUES ($1, $2, $3, now()) RETURNING id`, [randomUUID(), provinceId, name]);
    const municipality = (districtId: number, name: string, wardCount: number | null = null) =>
      run(`INSERT INTO $schema.municipalities (public_id, district_id, name, type, ward_count, updated_at) VALUES ($1, $2, $3, 'municipality', $4, now())`, [
        randomUUID(),
        districtId,
        name,
        wardCount,
      ]);
    const idOf = async (result: Promise<{ rows: { id: number }[] }>) => (await result).rows[0]?.id as number;

    it('refuses a province name that differs only in letter case', async () => {
      await province('Drift Province');
      expect(await constraintOf(province('DRIFT province'))).toBe('provinces_name_lower_key');
    });

    it('refuses a twin district in one province, not in another', async () => {
      const one = await idOf(province('Drift One'));
      const two = await idOf(province('Drift Two'));
      await district(one, 'Drift District');
      expect(await constraintOf(district(one, 'drift district'))).toBe('districts_province_name_lower_key');
      expect(await constraintOf(district(two, 'drift district'))).toBe('accepted');
    });

    it('refuses a twin municipality in one district, and a ward count outside 1-35', async () => {
      const p = await idOf(province('Drift Three'));
      const one = await idOf(district(p, 'Drift A'));
      const two = await idOf(district(p, 'Drift B'));
      await municipality(one, 'Drift Town');
      expect(await constraintOf(municipality(one, 'DRIFT TOWN'))).toBe('municipalities_district_name_lower_key');
      expect(await constraintOf(municipality(two, 'DRIFT TOWN'))).toBe('accepted');
      expect(await constraintOf(municipality(two, 'Too many wards', 36))).toBe('municipalities_ward_count_check');
      expect(await constraintOf(municipality(two, 'No wards', 0))).toBe('municipalities_ward_count_check');
    });

    it('seeds 7 provinces, 77 districts and 36 municipalities', async () => {
      const count = async (table: string) => Number((await run(`SELECT count(*) AS n FROM $schema.${table} WHERE name NOT ILIKE 'drift%'`)).rows[0].n);
      expect([await count('provinces'), await count('districts'), await count('municipalities')]).toEqual([7, 77, 36]);
    });
  });
});
