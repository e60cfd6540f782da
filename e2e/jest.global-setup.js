// Starts the system the suites share (see test/support/shared-system.ts), from the built e2e support
// code: jest's global setup is not given the suites' module mapping, so it cannot load the sources.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const testDir = join(import.meta.dirname, 'test');

/** Whether a suite this run selected uses the shared system (a run of other files starts none, and needs no build). */
function selectedSuitesShare(globalConfig) {
  if (process.env.JEST_LANE === 'unit') return false; // the unit lane runs src/**/*.spec.ts only
  const patterns = globalConfig.testPathPatterns;
  const matches = patterns?.isSet?.() ? patterns.toExecutor({ rootDir: globalConfig.rootDir }) : undefined;
  return readdirSync(testDir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(testDir, name))
    .some((path) => (!matches || matches.isMatch(path)) && readFileSync(path, 'utf8').includes('sharedSystem()'));
}

export default async function globalSetup(globalConfig) {
  if (!selectedSuitesShare(globalConfig)) return;
  const { hostSharedSystem } = await import('./dist/test/support/shared-system.js');
  globalThis.sharedSystemHost = await hostSharedSystem();
}
