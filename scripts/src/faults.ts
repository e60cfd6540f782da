// `npm run faults [-- --quick] [-- --only a,b] [-- --smtp-refusal-seconds N]`: starts the whole
// system behind TCP proxies it owns (scripts/src/proof/system.ts), runs the scenarios of
// scripts/src/faults/ in order, prints per scenario what it did, its counts and PASS/FAIL, and exits
// non-zero on any FAIL. --quick uses small counts and short outages (the CI test runs it).
import { parseArgs } from 'node:util';
import { startProofSystem } from './proof/system.js';
import { SCENARIOS } from './faults/index.js';
import type { FaultOptions, Outcome } from './faults/scenario.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'smtp-refusal-seconds': { type: 'string' },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('npm run faults -- [--quick] [--only name,name] [--smtp-refusal-seconds N] [--verbose]');
  for (const scenario of SCENARIOS) console.log(`  ${scenario.name.padEnd(18)} ${scenario.title}`);
  process.exit(0);
}
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(`[faults] unknown scenario ${unknown.join(', ')}; see --help`);
  process.exit(2);
}
const quick = values.quick;
const options: FaultOptions = {
  quick,
  /** Guest submissions per burst, and clients sending them. */
  burst: quick ? 30 : 300,
  concurrency: quick ? 4 : 12,
  /** How long a dependency stays cut. */
  outageMs: quick ? 3_000 : 10_000,
  smtpRefusalMs: 1000 * Number(values['smtp-refusal-seconds'] ?? (quick ? 5 : 60)),
};
const selected = SCENARIOS.filter((scenario) => !only || only.includes(scenario.name));

console.log(
  `[faults] starting the system behind its proxies (${quick ? 'quick' : 'full'} run: bursts of ${options.burst}, outages of ${options.outageMs / 1000} s, SMTP refusing ${options.smtpRefusalMs / 1000} s)`,
);
const system = await startProofSystem({
  label: 'faults',
  quiet: !values.verbose,
  // Retries must outlast the SMTP refusal: 14 attempts from 250 ms doubling cover over an hour.
  // A quick run's email lock is a third of the default: a job a killed notifier held, or whose move an
  // outage cut Redis's reply to, runs again within 30 s, not 90 s.
  env: {
    EMAIL_BACKOFF_MS: String(Math.max(100, Math.min(2_000, options.smtpRefusalMs / 20))),
    EMAIL_ATTEMPTS: '14',
    ...(quick && { EMAIL_JOB_LOCK_MS: '20000' }),
  },
});
const results: { name: string; passed: boolean }[] = [];
try {
  for (const scenario of selected) {
    console.log(`\n== ${scenario.name}: ${scenario.title}`);
    const started = Date.now();
    let outcome: Outcome;
    try {
      outcome = await scenario.run(system, options, (line) => console.log(`   ${line}`));
    } catch (error) {
      outcome = { counts: {}, checks: [[`ran to the end (${(error as Error).message})`, false]] };
    }
    const passed = outcome.checks.every(([, ok]) => ok);
    console.log(
      `   counts: ${Object.entries(outcome.counts)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')}`,
    );
    for (const [check, ok] of outcome.checks) console.log(`   ${ok ? 'ok  ' : 'FAIL'} ${check}`);
    console.log(`   ${passed ? 'PASS' : 'FAIL'} ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    results.push({ name: scenario.name, passed });
    // The next scenario starts from a healthy system, even after one that failed half-way.
    try {
      for (const name of system.stopped()) await system.restart(name);
      await system.ready(60_000);
    } catch (error) {
      console.log(`   the system did not recover: ${(error as Error).message}`);
    }
  }
} finally {
  await system.shutdown();
}
const failed = results.filter((result) => !result.passed);
console.log(`\n[faults] ${results.length - failed.length} passed, ${failed.length} failed${failed.length ? `: ${failed.map((result) => result.name).join(', ')}` : ''}`);
process.exitCode = failed.length > 0 ? 1 : 0;
