// Every project's unit lane in one jest, as `npm test`'s full run runs them (scripts/src/test.ts): one
// process loads jest once, where one Nx task per project cost a second of CPU each in npm, Nx and
// jest's start (43 s of CPU for 19 projects on a fresh clone, against 14 s here). Run with
// JEST_LANE=unit, which each project's own jest.config.js reads; Nx's `test` targets stay the way to
// run some projects, cached.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = import.meta.dirname;
const workspaces = ['libs', 'services'].flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(parent, name))).concat('e2e');

export default {
  rootDir: root,
  projects: workspaces.filter((folder) => existsSync(join(root, folder, 'jest.config.js'))).map((folder) => `<rootDir>/${folder}`),
  reporters: ['default', [join(root, 'libs/testing/jest/results-reporter.js'), { project: 'unit tests' }]],
  passWithNoTests: true,
};
