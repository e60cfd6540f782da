// `npm test`: Prettier's check, the typecheck and ESLint of the whole workspace, and every test lane of every project
// with Nx (unit tests beside the integration and end-to-end suites), then one closing line for the whole run.
// `npm run test:unit` (`--unit`): the unit lane only, the seconds-long loop.
// `npm test -- --affected` (the GitHub workflow): Prettier's check, then the lanes of the projects a change affects
// against NX_BASE, as Nx runs them; `npm test -- -p identity`: those projects' lanes.
// `--record-suite-seconds`: afterwards, updates suite-seconds.json (the order the e2e lane starts its
// suites in on a fresh clone: libs/testing/jest/longest-first-sequencer.js) from this run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LaneSummary } from '@school/testing/results-reporter';
import { expectOwnLoad } from '@school/testing/time-scale';
import { inQueues, type Project, scriptCommand, workspaceProjects } from './test/workspace.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const affected = args.includes('--affected');
const recordSuiteSeconds = args.includes('--record-suite-seconds');
const nxArgs = args.filter((arg) => arg !== '--unit' && arg !== '--affected' && arg !== '--record-suite-seconds');

// The API docs page test drives Debian's Chromium (e2e/test/support/browser.ts): say so before anything runs.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!unitOnly && !existsSync(chromium)) {
  console.error(`npm test needs Chromium at ${chromium}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH; see docs/testing.md)`);
  process.exit(1);
}
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

// The lanes load the machine themselves: all at once, five jest processes (the checks' one, the
// end-to-end lane's two, two integration projects'); some projects only, Nx's two at a time. Every
// bound a test waits for stretches by that load besides the machine's own (TEST_TIME_SCALE, which
// the children inherit; one given by the caller wins).
const someProjects = affected || nxArgs.length > 0;
const ownProcesses = unitOnly ? 0 : someProjects ? 2 : 5;
const scale = expectOwnLoad(ownProcesses);

// Fast lanes first so a typing slip fails in seconds; the suites that need Postgres, Redis and
// RabbitMQ after, two at a time (the machines this runs on have two cores).
const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const nx = (...nxTargets: string[]) => ['nx', ...nxTargets, '--outputStyle=stream', ...nxArgs];

let status = 0;
const record = (code: number | null) => {
  if (code !== 0) status = code ?? 1;
};
const started = Date.now();
const timings: string[] = [];
const failedSteps: string[] = [];
/** Runs `npx args`, recording its exit status and how long it took under `label`; resolves to whether it passed. */
const step = (label: string, args: string[], env: NodeJS.ProcessEnv = nxEnv) => timedStep(label, () => run('npx', args, env));

/** Runs `command`, its output on this process's (each line after `prefix`, when given); resolves to its exit code. */
const run = (command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root, prefix?: string) =>
  new Promise<number | null>((resolve) => {
    const child = spawn(command, args, { cwd, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    if (prefix) {
      createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${prefix} ${line}\n`));
      createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${prefix} ${line}\n`));
    }
    child.once('close', resolve);
  });

/** Runs `work`, recording its exit status and how long it took under `label`; resolves to whether it passed. */
async function timedStep(label: string, work: () => Promise<number | null>): Promise<boolean> {
  const begun = Date.now();
  const code = await work();
  timings.push(`${label} ${duration(Date.now() - begun)}`);
  record(code);
  if (code !== 0) failedSteps.push(label);
  return code === 0;
}

/** A workspace tool's own executable (node_modules/.bin), without npx's start: a second of CPU each. */
const tool = (name: string, args: string[], env: NodeJS.ProcessEnv = process.env) => run(join(root, 'node_modules', '.bin', name), args, env);

/**
 * One project's `lane` in a jest of its own, as its `test:int` or `e2e` script runs it, without
 * the npm and Nx task processes around it (docs/testing.md: half a small lane's CPU).
 */
const jestLane = (project: string, lane: 'int' | 'e2e') =>
  run(
    process.execPath,
    ['--experimental-vm-modules', join(root, 'node_modules', 'jest', 'bin', 'jest.js')],
    { ...process.env, JEST_LANE: lane },
    join(root, project),
    `${project}:`,
  );

// Prettier's and ESLint's (scripts/src/typecheck-and-lint.ts) caches of the files they found clean, by
// content: a later run checks only what changed since (a fresh clone, the CI's, has none and checks
// everything). ESLint's cache keys a file on its own content and the config: a change to a type another
// file uses is seen once that file changes too, or once the cache is cleared (`rm -rf node_modules/.cache/eslint`).
const PRETTIER_CACHE = ['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/prettier/.prettier-cache'];

// Formatting is the one check outside Nx's projects (it covers scripts/, bench/ and the root files too).
async function prettier() {
  if (!(await timedStep('prettier', () => tool('prettier', ['--check', '--log-level', 'warn', ...PRETTIER_CACHE, '.'])))) {
    console.error('npm test: files differ from their Prettier layout; `npm run format` rewrites them');
  }
}

if (unitOnly) {
  await step('unit', nx('run-many', '-t', 'test', '--parallel=2'));
} else if (someProjects) {
  // Some projects only (`-p identity`, or those `--affected` names): their lanes as Nx runs them, fast ones first.
  const which = affected ? 'affected' : 'run-many';
  await prettier();
  await step('lint, typecheck, unit', nx(which, '-t', 'lint', 'typecheck', 'test', '--parallel=2'));
  await step('integration and e2e', nx(which, '-t', 'test:int', 'e2e', '--parallel=2'));
} else {
  // Everything at once: the checks, the end-to-end suites (two files at a time) and the integration
  // lanes (two projects at a time). The suites wait on processes, sockets and timers much of the time,
  // so only this many at once keeps both cores busy to the end: measured on a quiet 2-core machine,
  // one queue each took 8 min, this 6 min 24 s. The end-to-end lane is the longest task and Nx
  // would start it last, so the builds come first and it starts at once. The lanes run in jests of
  // their own, as their scripts say, without an npm and an Nx task process around each. The whole workspace is
  // typechecked and linted as one program (the root tsconfig.json holds every project's files,
  // e2e/test/typecheck.test.ts checks that it does), which costs an eighth of the CPU of one tsc
  // per project and a quarter of one ESLint per project, each compiling the libraries it imports again;
  // likewise every unit spec runs in one jest.
  await timedStep('builds', () => builds(2));
  await Promise.all([
    (async () => {
      await prettier();
      // tsc and ESLint over one program (scripts/src/typecheck-and-lint.ts says what that saves).
      await timedStep('typecheck and lint', () => run(process.execPath, [join(root, 'scripts/dist/typecheck-and-lint.js')], process.env));
      // Every project's unit specs in one jest (jest.unit.config.js says what that saves).
      await timedStep('unit', () =>
        run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '-c', 'jest.unit.config.js'], { ...process.env, JEST_LANE: 'unit' }),
      );
    })(),
    timedStep('e2e', () => jestLane('e2e', 'e2e')),
    timedStep('integration', () => integrationLanes(2)),
  ]);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedTests: string[] = [];
const laneTimes: Array<{ name: string; seconds: number }> = [];
const suiteTimes: Array<{ name: string; seconds: number }> = [];
const recorded: Array<[string, number]> = [];
let lanes = 0;
for (const entry of existsSync(resultsDir) ? readdirSync(resultsDir, { recursive: true }) : []) {
  if (!String(entry).endsWith('.json')) continue;
  const lane = JSON.parse(readFileSync(join(resultsDir, String(entry)), 'utf8')) as LaneSummary;
  for (const key of ['passed', 'failed', 'skipped'] as const) totals[key] += lane[key];
  const project = dirname(String(entry));
  for (const { file, test, error } of lane.failures) failedTests.push(`  ${project} ${file} › ${test}\n      ${error}`);
  const laneName = `${project} ${String(entry).slice(project.length + 1, -'.json'.length)}`;
  // A lane replayed from Nx's cache may predate the timings.
  if (lane.seconds !== undefined) laneTimes.push({ name: laneName, seconds: lane.seconds });
  for (const { file, seconds } of lane.suites ?? []) suiteTimes.push({ name: `${project} ${file}`, seconds });
  recorded.push(...recordedSeconds(laneName, lane.suites ?? []));
  lanes += 1;
}
if (recordSuiteSeconds) {
  // Over the times kept before (a run of some projects records theirs only), without suites since deleted.
  const file = join(root, 'suite-seconds.json');
  const kept = { ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>), ...Object.fromEntries(recorded) };
  const entries = Object.entries(kept).filter(([suite]) => existsSync(join(root, suite)));
  writeFileSync(file, `${JSON.stringify(Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`);
  console.log(`recorded the times of ${recorded.length} suites in suite-seconds.json`);
}
// Where the time went: the longest lanes bound the run, and the longest suites bound their lanes.
const slowest = (times: typeof laneTimes, count: number) =>
  times
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ name, seconds }) => `${name} ${duration(seconds * 1000)}`)
    .join(', ');
if (laneTimes.length > 0) console.log(`\nslowest lanes: ${slowest(laneTimes, 6)}\nslowest suites: ${slowest(suiteTimes, 10)}`);
if (status !== 0 && totals.failed === 0) totals.failed = 1; // a lint, typecheck or build failure fails the run too
console.log(`\n${lanes} project lanes tested in ${duration(Date.now() - started)} (${timings.join(', ')}; time scale ${scale})`);
if (failedSteps.length > 0) console.log(`failed: ${failedSteps.join(', ')}`);
if (failedTests.length > 0) console.log(`failed tests:\n${failedTests.join('\n')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status);

/**
 * Every project's integration lane, `concurrency` projects at a time, those with the most suites
 * first (identity's is the longest lane of the run); resolves to 0 or the first failing exit code.
 */
function integrationLanes(concurrency: number): Promise<number | null> {
  const projects = workspaceProjects(root)
    .filter((project) => project.scripts['test:int'])
    .map((project) => ({ project, suites: testFiles(join(root, project.folder, 'test')) }))
    .sort((a, b) => b.suites - a.suites);
  return inQueues(projects, concurrency, ({ project }) => jestLane(project.folder, 'int'));
}

/**
 * Every project's `prisma:generate` where it has one, then its `build`, `concurrency` projects at a
 * time, each script started as npm starts it but without npm and Nx around it: on a fresh clone
 * (nothing in Nx's cache) `nx run-many -t build` took 13 s and 24 s of CPU here, these 6 s and 11 s.
 * `npm run build` stays Nx's, which replays an unchanged project from its cache.
 */
function builds(concurrency: number): Promise<number | null> {
  const script = (project: Project, name: string) => {
    const { command, args, env, cwd } = scriptCommand(root, project, name, process.env);
    return run(command, args, env, cwd, `${project.folder}:`);
  };
  // The projects with a client to generate first: theirs are the longest, so none is left to run alone at the end.
  const projects = workspaceProjects(root)
    .filter((project) => project.scripts['build'])
    .sort((a, b) => Number(Boolean(b.scripts['prisma:generate'])) - Number(Boolean(a.scripts['prisma:generate'])));
  return inQueues(projects, concurrency, async (project) => {
    const generated = project.scripts['prisma:generate'] ? await script(project, 'prisma:generate') : 0;
    return generated === 0 ? script(project, 'build') : generated;
  });
}

function testFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true }).filter((entry) => String(entry).endsWith('.test.ts')).length;
}

/** The e2e lane's suite times, by path from the repository's root, for suite-seconds.json (libs/testing/jest/longest-first-sequencer.js). */
function recordedSeconds(lane: string, suites: NonNullable<LaneSummary['suites']>): Array<[string, number]> {
  return lane === '@school/e2e e2e' ? suites.map((suite): [string, number] => [`e2e/${suite.file}`, Math.round(suite.seconds)]) : [];
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
