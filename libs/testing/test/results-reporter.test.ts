import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { summarize, type RunResults } from '../jest/results-reporter.js';
import { scaled } from '../src/index.js';

const ROOT = '/repo/services/identity';
const red = (text: string) => `\u001b[31m${text}\u001b[39m`;

function run(testResults: RunResults['testResults'], counts: Partial<RunResults> = {}): RunResults {
  return { numPassedTests: 0, numFailedTests: 0, numRuntimeErrorTestSuites: 0, numPendingTests: 0, numTodoTests: 0, startTime: Date.now(), testResults, ...counts };
}

describe("the lane summary npm test's closing lines are made of", () => {
  it('names each failed test by file and full name, with what its assertion said before the stack', () => {
    const message = [
      `${red('Error: expect(received).toBeLessThan(expected)')}`,
      '',
      'Expected: < 2500',
      'Received:   2731',
      '    at Object.<anonymous> (/repo/services/identity/test/rpc.test.ts:34:7)',
    ].join('\n');
    const summary = summarize(
      run(
        [
          {
            testFilePath: `${ROOT}/test/rpc.test.ts`,
            testResults: [
              { status: 'passed', fullName: 'rpc answers', failureMessages: [] },
              { status: 'failed', fullName: 'rpc reconnects within 2 s', failureMessages: [message] },
            ],
          },
        ],
        { numPassedTests: 1, numFailedTests: 1, numPendingTests: 2 },
      ),
      ROOT,
    );
    expect(summary).toEqual({
      passed: 1,
      failed: 1,
      skipped: 2,
      failures: [{ file: 'test/rpc.test.ts', test: 'rpc reconnects within 2 s', error: 'Error: expect(received).toBeLessThan(expected) / Expected: < 2500 / Received:   2731' }],
      seconds: expect.any(Number),
      suites: [],
    });
  });

  it('counts and names a suite that did not run at all', () => {
    const summary = summarize(
      run([{ testFilePath: `${ROOT}/test/broken.test.ts`, testExecError: { message: "Cannot find module './gone.js'\n    at resolve" }, testResults: [] }], {
        numRuntimeErrorTestSuites: 1,
      }),
      ROOT,
    );
    expect(summary.failed).toBe(1);
    expect(summary.failures).toEqual([{ file: 'test/broken.test.ts', test: '(the suite did not run)', error: "Cannot find module './gone.js'" }]);
  });

  it("names what failed a suite's hook when jest kept only its stack (an error thrown in afterAll)", () => {
    const stack = 'Error: Nest could not find ReadinessRegistry element\n    at InstanceLinksHost.get (/repo/node_modules/@nestjs/core/injector/instance-links-host.js:13:19)';
    const summary = summarize(run([{ testFilePath: `${ROOT}/test/app.test.ts`, testExecError: { message: '', stack }, testResults: [] }], { numRuntimeErrorTestSuites: 1 }), ROOT);
    expect(summary.failures).toEqual([{ file: 'test/app.test.ts', test: '(the suite did not run)', error: 'Error: Nest could not find ReadinessRegistry element' }]);
  });

  it('has nothing to name when every test passed', () => {
    expect(
      summarize(run([{ testFilePath: `${ROOT}/test/ok.test.ts`, testResults: [{ status: 'passed', fullName: 'ok', failureMessages: [] }] }], { numPassedTests: 1 }), ROOT),
    ).toEqual({
      passed: 1,
      failed: 0,
      skipped: 0,
      failures: [],
      seconds: expect.any(Number),
      suites: [],
    });
  });

  it('times the lane and each suite that ran, slowest first, so a run shows its critical path', () => {
    const at = Date.parse('2026-01-01T00:00:00Z');
    const suite = (name: string, start: number, end: number) => ({ testFilePath: `${ROOT}/test/${name}`, perfStats: { start, end }, testResults: [] });
    const summary = summarize(
      run([suite('quick.test.ts', at, at + 1_240), suite('slow.test.ts', at, at + 61_960), suite('never-ran.test.ts', 0, 0)], { startTime: at }),
      ROOT,
      at + 90_040,
    );
    expect(summary.suites).toEqual([
      { file: 'test/slow.test.ts', seconds: 62 },
      { file: 'test/quick.test.ts', seconds: 1.2 },
    ]);
    expect(summary.seconds).toBe(90);
  });
});

describe('a lane whose jest process does not exit by itself', () => {
  it('fails once the grace after its last test is over, naming why, instead of hanging the run', async () => {
    const repository = fileURLToPath(new URL('../../..', import.meta.url));
    const resultsDir = await mkdtemp(join(tmpdir(), 'lane-results-'));
    try {
      const jest = join(repository, 'node_modules/jest/bin/jest.js');
      const config = fileURLToPath(new URL('fixtures/leaky/jest.config.js', import.meta.url));
      // A tenth of the time scale: the grace of 10 s becomes 1 s.
      const env = { ...process.env, TEST_TIME_SCALE: '0.1', TEST_RESULTS_DIR: resultsDir, JEST_LANE: 'int' };
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--experimental-vm-modules', jest, '--config', config],
          { cwd: repository, env, timeout: scaled(60_000) },
          (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      });
      expect(code).toBe(1);
      expect(stderr).toMatch(/leaky-fixture \(int\): jest still running 1 s after its tests ended/);
      const lane = JSON.parse(await readFile(join(resultsDir, 'leaky-fixture', 'int.json'), 'utf8')) as ReturnType<typeof summarize>;
      expect(lane).toMatchObject({ passed: 1, failed: 1, failures: [{ file: '(the jest process)', test: 'exits by itself' }] });
    } finally {
      await rm(resultsDir, { recursive: true, force: true });
    }
  });
});
