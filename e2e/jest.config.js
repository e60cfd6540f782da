import { jestConfig } from '../jest.preset.js';

export default jestConfig(import.meta.dirname, {
  testTimeout: 60_000,
  // Two suites at a time: most of a suite's time is spent waiting on the processes it started.
  maxWorkers: 2,
  globalSetup: '<rootDir>/jest.global-setup.js',
  globalTeardown: '<rootDir>/jest.global-teardown.js',
});
