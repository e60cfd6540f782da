import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `migration.sql` scripts of a Prisma migrations folder, in the order they apply. */
export function migrationScriptsOf(folder: URL): string[] {
  const dir = fileURLToPath(folder);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(join(dir, name, 'migration.sql'), 'utf8'));
}
