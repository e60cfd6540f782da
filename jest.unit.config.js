// Every project's unit lane in one jest, as `npm test`'s full run runs them (scripts/src/test.ts), with
// JEST_LANE=unit, which each project's own jest.config.js reads too. One Nx task per project cost a
// second of CPU each in npm, Nx and jest's start (43 s of CPU for 19 projects on a fresh clone,
// against 21 s here). Nx's `test` targets stay the way to run some projects, cached.
// Not the integration lanes: a project's suites assume they run one at a time (the gateway's share
// per-ip upload slots on one Redis, messaging's broker timings), which Nx's one jest per project keeps.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = import.meta.dirname;
if (process.env.JEST_LANE !== 'unit') throw new Error('jest.unit.config.js runs with JEST_LANE=unit');
const workspaces = ['libs', 'services'].flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(parent, name))).concat('e2e');
// Read by jest.preset.js as jest loads the projects' configs, in this process: they leave the options
// of a whole run (reporters, workers) to this one. A global, not a variable of the environment, which
// the suites' children would inherit.
globalThis.jestWorkspaceLane = 'unit';

export default {
  rootDir: root,
  projects: workspaces.filter((folder) => existsSync(join(root, folder, 'jest.config.js'))).map((folder) => `<rootDir>/${folder}`),
  reporters: ['default', [join(root, 'libs/testing/jest/results-reporter.js'), { project: 'unit tests' }]],
  passWithNoTests: true,
  // A global option: the projects' own (jest.preset.js) is not read in a multi-project run, which would
  // leave jest's 5 s to every hook and test (red once on a busy machine). Stretched by the environment.
  testTimeout: 30_000,
};
