// Jest reporter: writes the pass/fail counts of one project's lane, and what failed, to
// .test-results/<package name>/<lane>.json (TEST_RESULTS_DIR moves it), so `npm test` can print one
// closing summary for the whole monorepo (a lane replayed from Nx's cache still counts) that names
// every failed test: a CI log cut to its end still says what to look at. A lane whose process is
// still up well after its tests ended (something holds a handle open) fails, rather than hanging
// the run or passing with jest's warning alone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from './time-scale.js';

const resultsDir = process.env.TEST_RESULTS_DIR ?? fileURLToPath(new URL('../../../.test-results', import.meta.url));
/** How long after its last test a lane's process may take to exit, stretched by the time scale. */
const EXIT_GRACE_MS = 10_000;

export default class ResultsReporter {
  /** `options.project`: the name the summary goes under (default: the package at jest's rootDir). */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.project = options.project ?? JSON.parse(readFileSync(join(globalConfig.rootDir, 'package.json'), 'utf8')).name;
    this.lane = process.env.JEST_LANE ?? 'all';
  }

  onRunComplete(_contexts, results) {
    const dir = join(resultsDir, this.project);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${this.lane}.json`);
    const summary = summarize(results, this.rootDir);
    writeFileSync(file, JSON.stringify(summary));
    const graceMs = scaled(EXIT_GRACE_MS);
    // Unref'd: it fires only when something else keeps the process alive.
    setTimeout(() => {
      const error = `still running ${Math.round(graceMs / 1000)} s after its tests ended: a timer, socket or server is left open (find it with --detectOpenHandles)`;
      summary.failed += 1;
      summary.failures.push({ file: '(the jest process)', test: 'exits by itself', error });
      writeFileSync(file, JSON.stringify(summary));
      process.stderr.write(`\n${this.project} (${this.lane}): jest ${error}\n`);
      process.exit(1);
    }, graceMs).unref();
  }
}

/**
 * The counts of a jest run and, for each failed test or suite that did not run, its file, name and first lines of error;
 * the lane's wall time until `now` and each suite's.
 */
export function summarize(results, rootDir, now = Date.now()) {
  const failures = [];
  for (const suite of results.testResults) {
    const file = relative(rootDir, suite.testFilePath);
    if (suite.testExecError) failures.push({ file, test: '(the suite did not run)', error: firstLines(suite.testExecError.message || suite.testExecError.stack) });
    for (const test of suite.testResults) {
      if (test.status === 'failed') failures.push({ file, test: test.fullName, error: firstLines(test.failureMessages[0]) });
    }
  }
  return {
    passed: results.numPassedTests,
    failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
    skipped: results.numPendingTests + results.numTodoTests,
    failures,
    seconds: seconds(now - results.startTime),
    suites: suiteTimes(results.testResults, rootDir),
  };
}

/** Each suite's wall time (loading its modules, its hooks and tests), slowest first: where a lane's time goes. */
function suiteTimes(testResults, rootDir) {
  return testResults
    .filter(({ perfStats }) => perfStats?.start > 0 && perfStats.end >= perfStats.start)
    .map(({ testFilePath, perfStats }) => ({ file: relative(rootDir, testFilePath), seconds: seconds(perfStats.end - perfStats.start) }))
    .sort((a, b) => b.seconds - a.seconds);
}

const seconds = (ms) => Math.round(ms / 100) / 10;

/** What an assertion says before its stack: the matcher, then what was expected and received. */
function firstLines(message = '') {
  // eslint-disable-next-line no-control-regex -- jest colours its messages
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').map((line) => line.trim());
  const stack = lines.findIndex((line) => line.startsWith('at '));
  return (stack === -1 ? lines : lines.slice(0, stack))
    .filter((line) => line !== '')
    .slice(0, 4)
    .join(' / ')
    .slice(0, 400);
}
