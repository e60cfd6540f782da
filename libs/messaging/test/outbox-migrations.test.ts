import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTBOX_MIGRATIONS } from '@school/messaging';
import { readMigrationFiles } from '@school/prisma';
import { migrationDrift } from '@school/testing';

const libraryDir = join(import.meta.dirname, '..');
const servicesDir = join(libraryDir, '..', '..', 'services');

describe('the outbox migrations of this library', () => {
  it('keep the names and checksums the producing services recorded when they held copies', async () => {
    // Databases migrated before the outbox moved here hold these rows in _prisma_migrations.
    const files = await readMigrationFiles(fileURLToPath(OUTBOX_MIGRATIONS));
    expect(files.map(({ name, checksum }) => ({ name, checksum }))).toEqual([
      { name: '20261122010000_outbox', checksum: 'ff348c6c1ffa395045e2c6ad1b15c046ee159ddcf96dc32f375bce87938876a2' },
      { name: '20261123000000_outbox_parking', checksum: '177e7e649be01919ba66370295dabbfdc604d85ea85b06adb46eba1b67ca034c' },
    ]);
  });

  it('build exactly the table prisma/outbox.prisma describes', async () => {
    expect(await migrationDrift({ migrationsDir: fileURLToPath(OUTBOX_MIGRATIONS), prismaSchemaPath: join(libraryDir, 'prisma', 'outbox.prisma') })).toBe('');
  });
});

describe('the producing services', () => {
  /** A service produces events when it wires the outbox (itself or through `eventServiceModule`); it must then apply the outbox's migrations. */
  async function services(): Promise<{ name: string; produces: boolean; appliesOutbox: boolean; keepsCopies: boolean }[]> {
    const names = (await readdir(servicesDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    return Promise.all(
      names.map(async (name) => {
        const source = (path: string) => readFile(join(servicesDir, name, 'src', path), 'utf8').catch(() => '');
        const migrations = await readdir(join(servicesDir, name, 'prisma', 'migrations')).catch(() => [] as string[]);
        return {
          name,
          produces: /OutboxModule\.forRoot\(|\boutbox: true\b/.test(await source('app.module.ts')),
          appliesOutbox: /MIGRATIONS: ServiceMigrations = \[[^\]]*OUTBOX_MIGRATIONS/.test(await source('migrations.ts')),
          keepsCopies: migrations.some((folder) => folder.endsWith('_outbox') || folder.endsWith('_outbox_parking')),
        };
      }),
    );
  }

  it('apply the outbox migrations from here, and no other service does', async () => {
    const found = await services();
    expect(found.filter((service) => service.produces).length).toBeGreaterThan(0);
    for (const service of found) expect({ name: service.name, appliesOutbox: service.appliesOutbox }).toEqual({ name: service.name, appliesOutbox: service.produces });
  });

  it('keep no copy of them in their own migrations folder', async () => {
    expect((await services()).filter((service) => service.keepsCopies).map((service) => service.name)).toEqual([]);
  });
});
