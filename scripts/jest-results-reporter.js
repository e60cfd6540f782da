// Jest reporter: writes each project's pass/fail counts to .test-results/<project>.json so
// `npm test` can print one closing line for the whole monorepo.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = fileURLToPath(new URL('../.test-results', import.meta.url));

export default class ResultsReporter {
  constructor(globalConfig) {
    this.project = basename(globalConfig.rootDir);
  }

  onRunComplete(_contexts, results) {
    mkdirSync(resultsDir, { recursive: true });
    const summary = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    writeFileSync(join(resultsDir, `${this.project}.json`), JSON.stringify(summary));
  }
}
