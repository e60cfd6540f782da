// Our applier and Prisma's schema engine must read and write the same history: a deployment that
// later runs `prisma migrate deploy`/`status` sees what we recorded, and the other way round.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { applyMigrations } from '../src/index.js';
import { DATABASE_URL, dropSchema, migrationsDirectory, randomSchema, sql } from './support/fixtures.js';
import { NO_FILTERS, prismaEngine, type PrismaEngine } from './support/prisma-schema-engine.js';

describe('history shared with Prisma’s schema engine', () => {
  let schema: string;
  let migrations: Awaited<ReturnType<typeof migrationsDirectory>>;
  let prisma: PrismaEngine;
  const ours = () => applyMigrations({ databaseUrl: DATABASE_URL, schema, migrationsDir: migrations.dir });
  const status = async () =>
    prisma.engine.diagnoseMigrationHistory({
      migrationsList: await prisma.migrationsList(migrations.dir),
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
  const deploy = async () => prisma.engine.applyMigrations({ migrationsList: await prisma.migrationsList(migrations.dir), filters: NO_FILTERS });

  beforeEach(async () => {
    schema = randomSchema('mig_compat');
    migrations = await migrationsDirectory();
    await migrations.add('20260101000000_first', 'CREATE TABLE first (id int PRIMARY KEY);\n');
    await migrations.add('20260102000000_second', 'CREATE TABLE second (id int PRIMARY KEY);\n');
    prisma = await prismaEngine(DATABASE_URL, schema);
  });

  afterEach(async () => {
    await prisma.close();
    await dropSchema(schema);
    await migrations.remove();
  });

  it('Prisma finds the history we wrote in sync and has nothing to deploy', async () => {
    await ours();

    expect(await status()).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
    expect(await deploy()).toEqual({ appliedMigrationNames: [] });
  });

  it('we find the history Prisma wrote in sync, with the same checksums we compute', async () => {
    expect(await deploy()).toEqual({ appliedMigrationNames: ['20260101000000_first', '20260102000000_second'] });
    const prismaRows = await sql(
      `SELECT migration_name, checksum, applied_steps_count, logs, finished_at IS NOT NULL AS finished
         FROM "${schema}"._prisma_migrations ORDER BY migration_name`,
    );

    expect(await ours()).toEqual({ applied: [] });

    const other = randomSchema('mig_compat');
    try {
      await applyMigrations({ databaseUrl: DATABASE_URL, schema: other, migrationsDir: migrations.dir });
      const ourRows = await sql(
        `SELECT migration_name, checksum, applied_steps_count, logs, finished_at IS NOT NULL AS finished
           FROM "${other}"._prisma_migrations ORDER BY migration_name`,
      );
      expect(ourRows).toEqual(prismaRows);
    } finally {
      await dropSchema(other);
    }
  });

  it('Prisma sees a migration edited after we applied it', async () => {
    await ours();
    await writeFile(join(migrations.dir, '20260101000000_first', 'migration.sql'), 'CREATE TABLE first (id bigint PRIMARY KEY);\n');

    expect((await status()).editedMigrationNames).toEqual(['20260101000000_first']);
  });

  it('Prisma sees a migration that failed with us as failed, and refuses to deploy (P3009)', async () => {
    await migrations.add('20260103000000_broken', 'SELECT * FROM no_such_table;\n');
    await expect(ours()).rejects.toThrow(/20260103000000_broken/);

    expect((await status()).failedMigrationNames).toEqual(['20260103000000_broken']);
    await expect(deploy()).rejects.toThrow(/failed migrations/i);
  });
});
