import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrationDirectories } from '../src/migration-files.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'migration-dirs-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function folder(name: string, migrations: string[]): Promise<string> {
  const dir = join(root, name);
  for (const migration of migrations) {
    await mkdir(join(dir, migration), { recursive: true });
    await writeFile(join(dir, migration, 'migration.sql'), `-- ${migration}\n`);
  }
  return dir;
}

describe('readMigrationDirectories', () => {
  it("merges a service's migrations with a library's into one history in name order", async () => {
    const own = await folder('own', ['20260101000000_init', '20260301000000_accounts']);
    const library = await folder('library', ['20260201000000_outbox']);
    const files = await readMigrationDirectories([own, library]);
    expect(files.map((file) => file.name)).toEqual(['20260101000000_init', '20260201000000_outbox', '20260301000000_accounts']);
    expect(files[1]?.script).toBe('-- 20260201000000_outbox\n');
  });

  it('refuses a migration name found in two directories', async () => {
    const one = await folder('one', ['20260101000000_init']);
    const other = await folder('other', ['20260101000000_init']);
    await expect(readMigrationDirectories([one, other])).rejects.toThrow(/`20260101000000_init` is in more than one/);
  });
});
