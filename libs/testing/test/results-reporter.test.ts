import { describe, expect, it } from '@jest/globals';
import { summarize, type RunResults } from '../../../scripts/jest/results-reporter.js';

const ROOT = '/repo/services/identity';
const red = (text: string) => `\u001b[31m${text}\u001b[39m`;

function run(testResults: RunResults['testResults'], counts: Partial<RunResults> = {}): RunResults {
  return { numPassedTests: 0, numFailedTests: 0, numRuntimeErrorTestSuites: 0, numPendingTests: 0, numTodoTests: 0, testResults, ...counts };
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

  it('has nothing to name when every test passed', () => {
    expect(
      summarize(run([{ testFilePath: `${ROOT}/test/ok.test.ts`, testResults: [{ status: 'passed', fullName: 'ok', failureMessages: [] }] }], { numPassedTests: 1 }), ROOT),
    ).toEqual({
      passed: 1,
      failed: 0,
      skipped: 0,
      failures: [],
    });
  });
});
