// Applies every service's migrations, one service after the other, by running each service's own
// `dist/migrate.js` (the applier its start-up uses), then exits 0. The migration job of compose and
// Kubernetes runs this; services then start with MIGRATE_ON_START=false. After `npm run build`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@school/config';

/** The repository's root (scripts/dist/migrate.js in a checkout, the image's /app in the migrate image). */
const root = fileURLToPath(new URL('../..', import.meta.url));

for (const name of SERVICE_NAMES) {
  const result = spawnSync(process.execPath, [`services/${name}/dist/migrate.js`, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[migrate] ${name} failed (${result.signal ?? `exit ${result.status}`})`);
    process.exit(result.status || 1);
  }
}
