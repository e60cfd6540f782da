// `npm run bench:feedback` (after `npm run build`): one bounded run on this machine against a fresh
// database and mail folder, both removed at the end. Needs Postgres, Redis and RabbitMQ
// (DATABASE_URL, REDIS_URL, AMQP_URL).
//
// Starts the system through @school/system-harness (as every test and tool does: its own database,
// Redis database, broker names and mail folder, free ports), in production mode, the gateway with
// TRUST_PROXY=1, and the write ceiling (bench/src/ceilings/write-server.ts: a bare
// single-process Fastify + `pg` server whose POST /feedback runs one transaction inserting the
// submission row and its outbox row, in copies of feedback's tables made after feedback migrated),
// and alternates rounds (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 8, at BENCH_CONNECTIONS,
// default 20) of:
//   POST /api/mobile/feedback/public through the gateway, each request from its own X-Forwarded-For
//   address so the guest throttle (5 per hour per ip + device) lets every one through, and
//   POST /feedback of the ceiling, the same body.
// Prints accepted submissions/s against the ceiling's (target >= 0.4); then both at a fixed rate of
// half the ceiling's (bench/src/ceilings/fixed-rate.ts) for their p99 latency; then waits up to 30 s
// and prints how many submissions the product accepted have no email in the support mailbox
// (target 0). The ceiling's rows live in their own schema: the product's table holds only its own.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSystem } from '@school/system-harness';
import autocannon, { type AutocannonOptions, type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { atFixedRate, reportLatency } from './ceilings/fixed-rate.js';
import { copyTables, FEEDBACK_TABLES, startWriteCeiling } from './ceilings/write-ceiling.js';
import { reportResult, sql, startProductionSystem, stopAll } from './support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.4;
const DELIVERY_WINDOW_MS = 30_000;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

const { freePort } = await import('@school/testing');

/** Each bench run tags its submissions, so only its own mail is counted. */
const runTag = `bench-${randomBytes(4).toString('hex')}`;
const { generateKeyPairSync } = await import('node:crypto');
const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** Production refuses the development admin password; the bootstrap admin gets one of this run. */
const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
let system: RunningSystem | undefined;
/** The system's mail folder (MAIL_OUTBOX_DIR): the notifier writes each mail there. */
let mailDir = '';

/** A client address no other request of this run uses (10.0.0.0/8 holds 16.7 million). */
const addressBase = randomBytes(3).readUIntBE(0, 3);
let addressCount = 0;
function nextAddress() {
  const value = (addressBase + addressCount++) % 0x1000000;
  return `10.${value >> 16}.${(value >> 8) & 0xff}.${value & 0xff}`;
}

let submissionCount = 0;
function submissionRequest(request: AutocannonRequest): AutocannonRequest {
  submissionCount += 1;
  request.headers = { ...request.headers, 'content-type': 'application/json', 'x-forwarded-for': nextAddress(), 'x-device-id': `${runTag}-device` };
  request.body = JSON.stringify({
    name: 'Bench Guest',
    email: 'bench.guest@example.org',
    category: 'general_feedback',
    subject: `${runTag} ${submissionCount}`,
    message: 'A submission of the feedback benchmark.\nSecond line.',
  });
  return request;
}

/** Load on the product (`path` /api/mobile/feedback/public of the gateway) or the ceiling (/feedback). */
function submissionLoad(url: string, path: string): AutocannonOptions {
  return { url, connections, duration: seconds, requests: [{ method: 'POST', path, setupRequest: submissionRequest }] };
}
const PRODUCT_PATH = '/api/mobile/feedback/public';
const CEILING_PATH = '/feedback';

/** Emails in the mail folder to the support inbox about this run's submissions, and how many distinct ones. */
async function deliveries() {
  let count = 0;
  const subjects = new Set();
  for (const file of (await readdir(mailDir)).filter((name) => name.endsWith('.eml'))) {
    const text = await readFile(join(mailDir, file), 'utf8');
    const subject = new RegExp(`${runTag} (\\d+)`).exec(text)?.[1];
    if (/^To: .*support@example\.com/im.test(text) && subject) {
      count += 1;
      subjects.add(subject);
    }
  }
  return { count, distinct: subjects.size };
}

try {
  system = await startProductionSystem('bench-feedback', { TRUST_PROXY: '1', BOOTSTRAP_ADMIN_PASSWORD: adminPassword, JWT_PRIVATE_KEY: privateKeyPem });
  const gateway = system.gatewayUrl;
  const databaseUrl = system.databaseUrl;
  mailDir = system.mailDir;

  await copyTables(databaseUrl, FEEDBACK_TABLES);
  const ceilingUrl = await startWriteCeiling({ databaseUrl, port: await freePort(), privateKeyPem });

  console.log(`bench/feedback: ${rounds} alternating rounds of ${seconds} s at ${connections} connections\n`);
  let accepted = 0;
  let refused = 0;
  const count = (load: AutocannonResult) => {
    accepted += load['2xx'];
    refused += load.non2xx;
  };
  count(await autocannon({ ...submissionLoad(gateway, PRODUCT_PATH), duration: 2 })); // warm-up
  await autocannon({ ...submissionLoad(ceilingUrl, CEILING_PATH), duration: 2 });
  const through: number[] = [];
  const ceiling: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const load = await autocannon(submissionLoad(gateway, PRODUCT_PATH));
    count(load);
    // Accepted submissions per second: a refused one (throttle, error) does not count.
    through.push(load['2xx'] / (load.duration || seconds));
    const bare = await autocannon(submissionLoad(ceilingUrl, CEILING_PATH));
    if (bare.non2xx + bare.errors > 0) throw new Error(`the write ceiling: ${bare.non2xx} non-2xx answers, ${bare.errors} errors`);
    ceiling.push(bare['2xx'] / (bare.duration || seconds));
  }
  const ratio = mean(through) / mean(ceiling);
  console.log(`accepted guest submissions: ${mean(through).toFixed(0)} /s (rounds ${through.map((value) => value.toFixed(0)).join(', ')})`);
  console.log(`write ceiling:              ${mean(ceiling).toFixed(0)} /s (rounds ${ceiling.map((value) => value.toFixed(0)).join(', ')})`);
  console.log(`ratio ${ratio.toFixed(2)} (target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'})\n`);
  const note = `${rounds} alternating rounds of ${seconds} s, ${connections} connections, load average ${(loadavg()[0] ?? 0).toFixed(2)}`;
  reportResult({
    figure: 'accepted guest feedback vs the write ceiling (bare Fastify + pg: the same two rows in one transaction)',
    product: mean(through),
    ceiling: mean(ceiling),
    unit: 'req/s',
    target: { op: '>=', value: TARGET },
    note,
  });

  const rate = mean(ceiling) / 2;
  const product = await atFixedRate(submissionLoad(gateway, PRODUCT_PATH), rate);
  count(product.result);
  const bare = await atFixedRate(submissionLoad(ceilingUrl, CEILING_PATH), rate);
  console.log(`at ${rate.toFixed(0)} /s: p99 ${product.p99} ms through the gateway (p50 ${product.p50}), ${bare.p99} ms bare (p50 ${bare.p50})\n`);
  reportLatency({ route: 'guest feedback', rate, product, ceiling: bare, ceilingName: 'the write ceiling', note: `${connections} connections, ${seconds} s each` });
  const loadEnded = Date.now();
  console.log(`refused submissions (throttle, errors): ${refused}`);

  // autocannon stops counting at the end of its duration; requests still in flight may be stored
  // after it: the table is the count of accepted submissions.
  const [{ stored }] = await sql(databaseUrl, 'SELECT count(*)::int AS stored FROM feedback.feedback_submissions');
  let delivered = await deliveries();
  while (delivered.distinct < stored && Date.now() - loadEnded < DELIVERY_WINDOW_MS) {
    await sleep(500);
    delivered = await deliveries();
  }
  const missing = Math.max(0, stored - delivered.distinct);
  console.log(`accepted submissions: ${stored} stored (${accepted} 2xx answers counted by the load generator)`);
  console.log(`support emails within ${DELIVERY_WINDOW_MS / 1000} s of the end of the load: ${delivered.count} (${delivered.distinct} distinct submissions)`);
  console.log(`not in the mailbox: ${missing} (target 0: ${missing === 0 ? 'met' : 'NOT met'})`);
  if (delivered.count > delivered.distinct) console.log(`duplicates: ${delivered.count - delivered.distinct} emails sent twice`);
  reportResult({
    figure: `feedback mails missing ${DELIVERY_WINDOW_MS / 1000} s after the load`,
    product: missing,
    unit: 'mails',
    target: { op: '<=', value: 0 },
    note: `of ${stored} stored; ${delivered.count - delivered.distinct} duplicates`,
  });
} finally {
  await stopAll();
  await system?.shutdown();
}
