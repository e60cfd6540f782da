import { jestConfig } from '../jest.preset.js';

export default jestConfig(import.meta.dirname, {
  testTimeout: 60_000,
  globalSetup: '<rootDir>/jest.global-setup.js',
  globalTeardown: '<rootDir>/jest.global-teardown.js',
});
