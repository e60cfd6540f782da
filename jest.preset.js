// Shared jest setup for every project: ESM TypeScript through SWC, workspace libs from source.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { swcOptions } from './scripts/jest/swc-options.js';

const root = dirname(fileURLToPath(import.meta.url));

// The lanes of docs/testing.md, chosen by JEST_LANE (each project's `test`, `test:int`, `test:medium`
// and `e2e` scripts set it); without it, as when one file is run by hand, every test of the project.
// The medium suites (a use case on a migrated database, no HTTP) are part of the integration lane
// too, so `npm test` runs them without a queue of their own; `medium` runs them alone.
const LANES = {
  unit: ['<rootDir>/src/**/*.spec.ts'],
  int: ['<rootDir>/test/**/*.test.ts'],
  medium: ['<rootDir>/test/medium/**/*.medium.test.ts'],
  e2e: ['<rootDir>/test/**/*.test.ts'],
};
const lane = process.env.JEST_LANE;
if (lane !== undefined && !(lane in LANES)) throw new Error(`JEST_LANE=${lane}: expected one of ${Object.keys(LANES).join(', ')}`);

/**
 * `templateDatabases`: the template databases the project's integration suites copy, each named by
 * the shared migrations applied with the project's own (`[]`, `['outbox']`); the global setup
 * migrates them before the suites start (libs/testing `createTestDatabase`).
 */
export function jestConfig(projectDir, { templateDatabases, ...overrides } = {}) {
  return {
    rootDir: projectDir,
    testEnvironment: join(root, 'libs/testing/jest/environment.js'),
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: lane ? LANES[lane] : [...LANES.unit, ...LANES.int],
    transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
    moduleNameMapper: {
      '^@school/([a-z-]+)$': join(root, 'libs/$1/src/index.ts'),
      '^@school/([a-z-]+)/([a-z-]+)$': join(root, 'libs/$1/src/$2/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    // Run as a project of jest.unit.config.js, the reporters are that config's.
    ...(!globalThis.jestWorkspaceLane && { reporters: ['default', join(root, 'libs/testing/jest/results-reporter.js')] }),
    ...(templateDatabases && { globalSetup: join(root, 'scripts/jest/global-setup.js'), testEnvironmentOptions: { templateDatabases } }),
    ...overrides,
    // Stretched on a loaded machine (TEST_TIME_SCALE) by the environment, as every timeout a test names.
    testTimeout: overrides.testTimeout ?? 30_000,
  };
}
