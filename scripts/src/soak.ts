// `npm run soak -- --minutes N [--clients C]`: starts the whole system (scripts/src/proof/system.ts,
// no proxies) and sends mixed traffic for N minutes from C closed-loop clients: admin and customer
// logins, refreshes, reads, writes, uploads, customer and guest feedback. Reports throughput,
// p50/p99 per route, errors, every feedback mail delivered, and the RSS of each process sampled
// every 5 s. Fails on any 5xx (or request without an answer), on a mail missing, or on a process
// whose RSS grew more than 20% between the end of the warm-up and the end of the run.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { ProcessName } from '@school/config';
import { repositoryRoot as root } from '@school/system-harness';
import { ADMIN, type Answer, awaitMails, type Credentials } from './proof/client.js';
import { median, percentile, rssMb } from './proof/stats.js';
import { startProofSystem } from './proof/system.js';
import { trafficMix } from './soak/traffic.js';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '5' }, clients: { type: 'string', default: '8' }, customers: { type: 'string', default: '4' } } });
const minutes = Number(values.minutes);
const clients = Number(values.clients);
const durationMs = minutes * 60_000;
/** The warm-up (caches, JIT, pools) the RSS baseline is taken after. */
const warmUpMs = Math.max(15_000, durationMs / 4);
const RSS_GROWTH_LIMIT = 0.2;
const SAMPLE_MS = 5_000;
const CUSTOMER_PASSWORD = 'Soak-Cust0mer!';

console.log(`[soak] ${minutes} min, ${clients} clients; warm-up ${(warmUpMs / 1000).toFixed(0)} s; starting the system...`);
const system = await startProofSystem({ label: 'soak', proxied: false });
let failed: boolean;
try {
  const customers: Credentials[] = [];
  for (let n = 0; n < Number(values.customers); n += 1) {
    const email = `soak.customer.${randomBytes(3).toString('hex')}@example.org`;
    execFileSync(
      process.execPath,
      ['services/identity/dist/cli/user-create.js', '--email', email, '--role', 'customer', '--password', CUSTOMER_PASSWORD, '--name', `Soak Customer ${n}`],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: system.databaseUrl, DOTENV_PATH: '/dev/null' },
        stdio: 'ignore',
      },
    );
    customers.push({ email, password: CUSTOMER_PASSWORD });
  }
  const routes = new Map<string, { latencies: number[]; statuses: Map<number, number> }>();
  const record = (route: string, answer: Answer) => {
    const entry = routes.get(route) ?? { latencies: [], statuses: new Map<number, number>() };
    entry.latencies.push(answer.ms);
    entry.statuses.set(answer.status, (entry.statuses.get(answer.status) ?? 0) + 1);
    routes.set(route, entry);
  };
  const mix = await trafficMix(system.gatewayUrl, { admin: ADMIN, customers, tag: `soak${randomBytes(3).toString('hex')}`, record });
  const rss = new Map<string, { at: number; mb: number }[]>();
  const sample = async () => {
    const at = Date.now() - started;
    for (const [name, pid] of Object.entries(system.pids())) {
      const mb = await rssMb(pid);
      if (mb !== undefined) rss.set(name, [...(rss.get(name) ?? []), { at, mb }]);
    }
  };
  const sampler = setInterval(() => void sample(), SAMPLE_MS);
  const started = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() - started < durationMs) {
        await mix.next();
      }
    }),
  );
  clearInterval(sampler);
  const elapsedS = (Date.now() - started) / 1000;

  console.log(`\n[soak] ${elapsedS.toFixed(0)} s of traffic; load average ${loadAverage()}`);
  let total = 0;
  let serverErrors = 0;
  console.log(`${'route'.padEnd(44)} ${'count'.padStart(7)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  statuses`);
  for (const [route, { latencies, statuses }] of [...routes].sort(([a], [b]) => a.localeCompare(b))) {
    total += latencies.length;
    const errors = [...statuses].filter(([status]) => status === 0 || status >= 500).reduce((sum, [, count]) => sum + count, 0);
    serverErrors += errors;
    const shown = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status || 'no answer'}: ${count}`)
      .join(', ');
    console.log(
      `${route.padEnd(44)} ${String(latencies.length).padStart(7)} ${(latencies.length / elapsedS).toFixed(1).padStart(7)} ${(percentile(latencies, 50) ?? 0).toFixed(1).padStart(8)} ${(percentile(latencies, 99) ?? 0).toFixed(1).padStart(8)}  ${shown}`,
    );
  }
  const unexpected = mix.unexpected();
  console.log(`total ${total} requests, ${(total / elapsedS).toFixed(1)} req/s; 5xx or no answer: ${serverErrors}; other unexpected answers: ${unexpected.length}`);
  for (const line of unexpected.slice(0, 10)) console.log(`  unexpected: ${line}`);

  const mails = await awaitMails(system.sink, mix.mailedTags(), 60_000);
  console.log(`feedback mails: ${mails.delivered} of ${mails.expected} delivered, ${mails.duplicated} duplicated`);

  console.log(`\nRSS (MB) after the ${(warmUpMs / 1000).toFixed(0)} s warm-up and at the end (median of 3 samples each), limit +${RSS_GROWTH_LIMIT * 100}%`);
  const grown: string[] = [];
  for (const [name, samples] of rss) {
    const after = samples.filter((sample) => sample.at >= warmUpMs);
    if (after.length < 6) {
      console.log(`  ${name.padEnd(16)} too few samples after the warm-up (${after.length}); run longer`);
      continue;
    }
    const baseline = median(after.slice(0, 3).map((sample) => sample.mb)) ?? 0;
    const end = median(after.slice(-3).map((sample) => sample.mb)) ?? 0;
    const growth = end / baseline - 1;
    const peak = Math.max(...samples.map((sample) => sample.mb));
    // The trend a reader can judge: the sample nearest each minute.
    const perMinute = samples.filter((sample, index) => index === samples.length - 1 || Math.floor(sample.at / 60_000) !== Math.floor((samples[index + 1]?.at ?? 0) / 60_000));
    console.log(
      `  ${name.padEnd(16)} ${baseline.toFixed(0).padStart(5)} -> ${end.toFixed(0).padStart(5)} (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%), peak ${peak.toFixed(0)}; by minute ${perMinute.map((sample) => sample.mb.toFixed(0)).join(' ')}`,
    );
    if (growth > RSS_GROWTH_LIMIT) grown.push(name);
  }
  const problems = [
    serverErrors > 0 && `${serverErrors} answers were 5xx or never came`,
    unexpected.length > 0 && `${unexpected.length} answers were not what the route promises`,
    mails.missing > 0 && `${mails.missing} feedback mails missing`,
    mails.duplicated > 0 && `${mails.duplicated} feedback mails duplicated`,
    grown.length > 0 && `RSS grew more than ${RSS_GROWTH_LIMIT * 100}% after the warm-up: ${grown.join(', ')}`,
  ].filter((problem) => typeof problem === 'string');
  failed = problems.length > 0;
  if (failed) {
    // The processes log warnings and errors only: their last lines tell what the failures were.
    for (const name of Object.keys(system.pids()) as ProcessName[]) {
      const logs = system.logs(name);
      if (logs) console.log(`\n--- last log lines of ${name}\n${logs}`);
    }
  }
  console.log(`\n[soak] ${failed ? `FAIL: ${problems.join('; ')}` : 'PASS'}`);
} finally {
  await system.shutdown();
}
process.exitCode = failed ? 1 : 0;

function loadAverage(): string {
  return execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/^.*load average: /, '');
}
