/** The parts of jest's aggregated result the summary reads. */
export interface RunResults {
  numPassedTests: number;
  numFailedTests: number;
  numRuntimeErrorTestSuites: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{
    testFilePath: string;
    testExecError?: { message: string; stack?: string } | null;
    testResults: Array<{ status: string; fullName: string; failureMessages: string[] }>;
  }>;
}

export interface LaneSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: Array<{ file: string; test: string; error: string }>;
}

export declare function summarize(results: RunResults, rootDir: string): LaneSummary;
