import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One folder of a Prisma migrations directory: `<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
  /** The folder name, which Prisma records as `migration_name`. */
  name: string;
  script: string;
  /** SHA-256 of the script, lower-case hex, as Prisma records it. */
  checksum: string;
}

export const MIGRATION_SCRIPT = 'migration.sql';
const LOCK_FILE = 'migration_lock.toml';
const PROVIDER = 'postgresql';

/** Prisma's checksum of a migration script: SHA-256 of its UTF-8 bytes, 64 hex digits. */
export function migrationChecksum(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

/**
 * Whether a script still matches the checksum recorded when it was applied. Like Prisma, a script
 * whose line endings git converted (LF <-> CRLF) still matches.
 */
export function scriptMatchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replace(/\r\n/g, '\n'), script.replace(/\n/g, '\r\n')];
  return variants.some((variant) => migrationChecksum(variant) === checksum);
}

/** The migrations of a directory in the order Prisma applies them (folder name, ascending). */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  if (entries.some((entry) => entry.isFile() && entry.name === LOCK_FILE)) {
    await assertLockProvider(join(migrationsDir, LOCK_FILE));
  }
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(migrationsDir, name, MIGRATION_SCRIPT);
      let script: string;
      try {
        script = await readFile(path, 'utf8');
      } catch (error) {
        throw new Error(`Migration \`${name}\` has no readable ${MIGRATION_SCRIPT} (${path}): ${(error as Error).message}`, { cause: error });
      }
      return { name, script, checksum: migrationChecksum(script) };
    }),
  );
}

/**
 * The migrations of several directories as one history, in name order; the same name in two of
 * them is refused (it would be recorded once and its second script never run).
 */
export async function readMigrationDirectories(migrationsDirs: readonly string[]): Promise<MigrationFile[]> {
  const files = (await Promise.all(migrationsDirs.map((dir) => readMigrationFiles(dir)))).flat();
  const names = new Set<string>();
  for (const { name } of files) {
    if (names.has(name)) throw new Error(`Migration \`${name}\` is in more than one of ${migrationsDirs.join(', ')}`);
    names.add(name);
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function assertLockProvider(path: string): Promise<void> {
  const content = await readFile(path, 'utf8');
  const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(content)?.[1];
  if (provider !== undefined && provider !== PROVIDER) {
    throw new Error(`${path} says provider "${provider}"; these migrations are not for ${PROVIDER}`);
  }
}
