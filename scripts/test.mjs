#!/usr/bin/env node
// `npm test`: lint, typecheck and test every project with Nx, then print one closing line for the whole run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// The API docs page test drives Debian's Chromium (e2e/test/support/browser.ts): say so before anything runs.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`npm test needs Chromium at ${chromium}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH; see docs/testing.md)`);
  process.exit(1);
}
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

const run = spawnSync(
  'npx',
  ['nx', 'run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2', '--outputStyle=stream', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' } },
);

const totals = { passed: 0, failed: 0, skipped: 0 };
const projects = existsSync(resultsDir) ? readdirSync(resultsDir) : [];
for (const file of projects) {
  const counts = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
  for (const key of Object.keys(totals)) totals[key] += counts[key];
}
const status = run.status ?? 1;
if (status !== 0 && totals.failed === 0) totals.failed = 1; // a lint, typecheck or build failure fails the run too
console.log(`\n${projects.length} projects tested`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status);
