// `npm run bench [-- --quick] [-- --only a,b]`: runs every built bench script (bench/src/*.ts but
// the helpers) one after the other, collects the `RESULT <json>` lines they print (bench/src/support.ts
// reportResult) and writes bench/RESULTS.md: per figure the product's number, the ceiling or peer
// measured in the same run, their ratio, the target and whether it was met, with the date, the
// machine, the load average before and after, and the commit. --quick shortens every measurement
// (the file says so); it is for checking the runner, not for the figures. --machine names the
// machine in the file (default: the host name); each script's row gives the 1-minute load average
// before and after it.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { repositoryRoot as root } from '@school/system-harness';

const HELPERS = new Set(['support.js', 'nginx.js']);

/** A `RESULT <json>` line of a bench script (bench/src/support.ts reportResult). */
interface Result {
  figure: string;
  product: number;
  ceiling?: number;
  unit?: string;
  ratio?: number;
  target?: { op: string; value: number };
  met?: boolean | null;
  note?: string;
}

interface Run {
  name: string;
  code: number | string;
  seconds: number;
  results: Result[];
  load: [before: number, after: number];
}
/** Shorter measurements of every bench script, by the variables each reads. */
const QUICK_ENV = { BENCH_SECONDS: '3', BENCH_ROUNDS: '1', BENCH_DURATION: '3', BENCH_WARMUP: '1', BENCH_EVENTS: '200', BENCH_REQUESTS: '60', BENCH_GROWTH_SCALE: '0.1' };

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    output: { type: 'string', default: 'bench/RESULTS.md' },
    machine: { type: 'string', default: hostname() },
  },
});
const all = readdirSync(`${root}bench/dist`)
  .filter((name) => name.endsWith('.js') && !HELPERS.has(name))
  .sort();
const only = values.only?.split(',').map((name) => `${name.replace(/\.(ts|js|mjs)$/, '')}.js`);
const scripts = all.filter((name) => !only || only.includes(name));
const env = { ...process.env, ...(values.quick && QUICK_ENV) };

function runScript(name: string): Promise<Run> {
  return new Promise((resolve) => {
    const started = Date.now();
    const loadBefore = loadavg()[0] ?? 0;
    const results: Result[] = [];
    const child = spawn(process.execPath, [`bench/dist/${name}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (line) => {
      process.stdout.write(`[${name}] ${line}\n`);
      if (line.startsWith('RESULT ')) results.push(JSON.parse(line.slice('RESULT '.length)) as Result);
    });
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
    child.once('exit', (code, signal) =>
      resolve({ name, code: code ?? signal ?? 'unknown', seconds: (Date.now() - started) / 1000, results, load: [loadBefore, loadavg()[0] ?? 0] }),
    );
  });
}

const number = (value: number | undefined | null): string =>
  value === undefined || value === null ? '' : Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toFixed(3);
const target = (result: Result): string => (result.target ? `${result.ceiling === undefined ? '' : 'ratio '}${result.target.op} ${result.target.value}` : '');
const met = (result: Result): string => (result.met === undefined || result.met === null ? '' : result.met ? 'yes' : '**no**');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const loadBefore = load();
const startedAt = new Date();
const runs: Run[] = [];
for (const name of scripts) {
  console.log(`\n[bench] ${name}`);
  runs.push(await runScript(name));
}
const loadAfter = load();

let commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim()) commit += ' (with uncommitted changes)';
const cpu = cpus();
const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench${values.quick ? ' -- --quick' : ''}\` (scripts/src/bench.ts); every figure comes from one run of the script named beside it,`,
  'its ceiling or peer measured in the same run on the same machine (docs/testing.md says what each ceiling is).',
  "Latency figures (`p99 at half the ceiling's rate`) are the product's p99 against the ceiling's, both at half the ceiling's throughput; no target is set for them yet.",
  '',
  `- Date: ${startedAt.toISOString()} (${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min)`,
  `- Machine: ${values.machine}: ${cpu.length} cores, ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}`,
  `- Load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after`,
  `- Commit: ${commit}`,
  values.quick
    ? `- **Reduced run** (\`--quick\`: ${Object.entries(QUICK_ENV)
        .map(([key, value]) => `${key}=${value}`)
        .join(', ')}): shorter measurements than the scripts' defaults; figures are indicative only.`
    : '- Full run: every script with its default durations.',
  '',
  '| script | figure | product | ceiling / peer | ratio | target | met | unit | note |',
  '|---|---|---:|---:|---:|---|---|---|---|',
];
for (const run of runs) {
  for (const result of run.results) {
    lines.push(
      `| ${run.name} | ${result.figure} | ${number(result.product)} | ${number(result.ceiling)} | ${number(result.ratio)} | ${target(result)} | ${met(result)} | ${result.unit ?? ''} | ${result.note ?? ''} |`,
    );
  }
}
lines.push('', '| script | exit | seconds | figures | load average (1 min) before / after |', '|---|---|---:|---:|---|');
for (const run of runs) {
  lines.push(
    `| ${run.name} | ${run.code === 0 ? 'ok' : `**${run.code}**`} | ${run.seconds.toFixed(0)} | ${run.results.length} | ${run.load.map((value) => value.toFixed(2)).join(' / ')} |`,
  );
}
lines.push('');
writeFileSync(resolve(root, values.output), lines.join('\n'));
console.log(
  `\n[bench] wrote ${values.output}: ${runs.reduce((sum, run) => sum + run.results.length, 0)} figures from ${runs.length} scripts; load average ${loadBefore} before, ${loadAfter} after`,
);
const failed = runs.filter((run) => run.code !== 0);
if (failed.length > 0) console.error(`[bench] failed: ${failed.map((run) => run.name).join(', ')}`);
process.exitCode = failed.length > 0 ? 1 : 0;
