// Jest reporter: writes the pass/fail counts of one project's lane to
// .test-results/<package name>/<lane>.json, so `npm test` can print one closing line for the whole
// monorepo and a lane replayed from Nx's cache (its output) still counts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = fileURLToPath(new URL('../.test-results', import.meta.url));

export default class ResultsReporter {
  constructor(globalConfig) {
    this.project = JSON.parse(readFileSync(join(globalConfig.rootDir, 'package.json'), 'utf8')).name;
    this.lane = process.env.JEST_LANE ?? 'all';
  }

  onRunComplete(_contexts, results) {
    const dir = join(resultsDir, this.project);
    mkdirSync(dir, { recursive: true });
    const summary = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    writeFileSync(join(dir, `${this.lane}.json`), JSON.stringify(summary));
  }
}
