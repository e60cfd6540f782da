import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo's root (where nx.json is), whether this runs from source under jest or built under e2e/dist. */
export const repositoryRoot = ((): string => {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'nx.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('nx.json not found above the e2e support folder');
    directory = parent;
  }
  return directory;
})();
