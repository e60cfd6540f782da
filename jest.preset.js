// Shared jest setup for every project: ESM TypeScript through SWC, workspace libs from source.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { scaled } from './scripts/jest/time-scale.js';

const root = dirname(fileURLToPath(import.meta.url));

export function jestConfig(projectDir, overrides = {}) {
  return {
    rootDir: projectDir,
    testEnvironment: join(root, 'scripts/jest/environment.js'),
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.test.ts'],
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
            target: 'es2023',
            keepClassNames: true,
          },
          module: { type: 'es6' },
        },
      ],
    },
    moduleNameMapper: {
      '^@school/([a-z-]+)$': join(root, 'libs/$1/src/index.ts'),
      '^@school/([a-z-]+)/([a-z-]+)$': join(root, 'libs/$1/src/$2/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    reporters: ['default', join(root, 'scripts/jest-results-reporter.js')],
    ...overrides,
    // Every timeout, the default and those a test names, stretched on a loaded machine (TEST_TIME_SCALE).
    testTimeout: scaled(overrides.testTimeout ?? 30_000),
  };
}
