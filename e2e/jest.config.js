import { jestConfig } from '../jest.preset.js';

export default jestConfig(import.meta.dirname, {
  testTimeout: 60_000,
  // Options of a whole run, which a project of jest.unit.config.js (the unit lane) leaves to it:
  ...(!globalThis.jestWorkspaceLane && {
    // Two suites at a time: most of a suite's time is spent waiting on the processes it started.
    maxWorkers: 2,
    // The longest suites first, on a fresh clone too (suite-seconds.json).
    testSequencer: '<rootDir>/../libs/testing/jest/longest-first-sequencer.js',
  }),
  globalSetup: '<rootDir>/jest.global-setup.js',
  globalTeardown: '<rootDir>/jest.global-teardown.js',
});
