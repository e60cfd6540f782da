/** The parts of jest's aggregated result the summary reads. */
export interface RunResults {
  numPassedTests: number;
  numFailedTests: number;
  numRuntimeErrorTestSuites: number;
  numPendingTests: number;
  numTodoTests: number;
  /** When the run started (ms since the epoch). */
  startTime: number;
  testResults: Array<{
    testFilePath: string;
    /** When the suite started and ended (ms since the epoch); 0 for a suite that did not run. */
    perfStats?: { start: number; end: number };
    testExecError?: { message: string; stack?: string } | null;
    testResults: Array<{ status: string; fullName: string; failureMessages: string[] }>;
  }>;
}

export interface LaneSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: Array<{ file: string; test: string; error: string }>;
  /** The lane's wall time, from jest's start to its summary. */
  seconds: number;
  /** Each suite's wall time, slowest first. */
  suites: Array<{ file: string; seconds: number }>;
}

export declare function summarize(results: RunResults, rootDir: string, now?: number): LaneSummary;
