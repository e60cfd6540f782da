// `npm run bench:feedback` (after `npm run build`): one bounded run on this machine against a fresh
// database, both removed at the end. Needs Postgres, Redis and RabbitMQ (DATABASE_URL, REDIS_URL, AMQP_URL).
//
// Guest feedback against its whole pipeline (issue 36 item 3): submission -> row and outbox row ->
// relay -> broker -> consumer -> support mail accepted by SMTP. An SMTP sink in this process takes
// every mail, of the product and of the ceiling alike.
//
//   product  the system through @school/system-harness (its own database, Redis database, broker
//            names, free ports), in production mode, the gateway with TRUST_PROXY=1, the notifier
//            sending to the sink (SMTP_URL);
//   ceiling  the write ceiling (bench/src/ceilings/write-server.ts: a bare Fastify + `pg` server
//            whose POST /feedback writes the submission and its outbox row in one transaction, in
//            copies of feedback's tables) and the mail pipeline (bench/src/ceilings/mail-pipeline.ts:
//            a bare `pg` relay with publisher confirms and a bare amqplib consumer rendering the same
//            template and sending it with pooled nodemailer to the same sink).
//
// Alternates rounds (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 8, at BENCH_CONNECTIONS,
// default 20) of guest submissions to each side, each request from its own X-Forwarded-For address
// so the guest throttle lets every one through. After each round it waits until every submission the
// round stored has its mail (at most 30 s) before the other side runs, so no backlog of one side
// runs under the other's load. Prints, against the ceiling (target >= 0.4 each):
//   accepted submissions/s  2xx answers over the round's duration;
//   mails delivered/s       the round's distinct mails over the time from the round's start to its last mail;
// and each side's CPU ms per submission by process and database transactions per submission over
// its rounds (load and drain). Then both at a
// fixed rate of half the ceiling's (bench/src/ceilings/fixed-rate.ts) for their p99 latency; then
// waits up to 30 s and prints how many submissions the product stored have no mail (target 0) and
// how many were mailed twice (target 0). BENCH_CPU_PROF=<dir> profiles feedback, the notifier and
// the gateway (`--cpu-prof`) into that directory.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSystem } from '@school/system-harness';
import amqplib from 'amqplib';
import autocannon, { type AutocannonOptions, type AutocannonRequest } from 'autocannon';
import { atFixedRate, reportLatency } from './ceilings/fixed-rate.js';
import { type SmtpSink, startSmtpSink } from './ceilings/smtp-sink.js';
import { CEILING_SCHEMA, copyTables, FEEDBACK_TABLES, startWriteCeiling } from './ceilings/write-ceiling.js';
import { cpuPerRequest, cpuTimes, reportResult, sql, startProcess, startProductionSystem, stopAll, type CpuTimes } from './support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.4;
const DELIVERY_WINDOW_MS = 30_000;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const PIPELINE = fileURLToPath(new URL('./ceilings/mail-pipeline.js', import.meta.url));
const NOTIFIER_DIST = fileURLToPath(new URL('../../services/notifier/dist/', import.meta.url));
/** The notifier's mail concurrency (its EMAIL_CONCURRENCY default), given to the ceiling's consumer too. */
const SMTP_CONNECTIONS = 5;

const { freePort } = await import('@school/testing');
/** BENCH_CPU_PROF=<dir>: feedback, the notifier and the gateway run with `--cpu-prof` into that directory. */
const profiling = process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` } : undefined;
const profiled = profiling && { feedback: profiling, notifier: profiling, gateway: profiling };

/** Each bench run tags its submissions; each load of it (side and round) adds its own label. */
const runTag = `bench${randomBytes(4).toString('hex')}`;
const { generateKeyPairSync } = await import('node:crypto');
const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** Production refuses the development admin password; the bootstrap admin gets one of this run. */
const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
let system: RunningSystem | undefined;

/** A client address no other request of this run uses (10.0.0.0/8 holds 16.7 million). */
const addressBase = randomBytes(3).readUIntBE(0, 3);
let addressCount = 0;
function nextAddress() {
  const value = (addressBase + addressCount++) % 0x1000000;
  return `10.${value >> 16}.${(value >> 8) & 0xff}.${value & 0xff}`;
}

/** Submissions subjected `<runTag>-<label> <n>`: the label names the load (side and round) a mail belongs to. */
function submissions(label: string): (request: AutocannonRequest) => AutocannonRequest {
  let count = 0;
  return (request) => {
    count += 1;
    request.headers = { ...request.headers, 'content-type': 'application/json', 'x-forwarded-for': nextAddress(), 'x-device-id': `${runTag}-device` };
    request.body = JSON.stringify({
      name: 'Bench Guest',
      email: 'bench.guest@example.org',
      category: 'general_feedback',
      subject: `${runTag}-${label} ${count}`,
      message: 'A submission of the feedback benchmark.\nSecond line.',
    });
    return request;
  };
}

type Side = 'product' | 'ceiling';
const PATHS: Record<Side, string> = { product: '/api/mobile/feedback/public', ceiling: '/feedback' };
const TABLES: Record<Side, string> = { product: 'feedback.feedback_submissions', ceiling: `${CEILING_SCHEMA}.feedback_submissions` };

/** The mails the sink accepted, by load label: each submission number once, how many in all, and when the last came. */
interface Mails {
  numbers: Set<string>;
  count: number;
  last: number;
}
const mails = new Map<string, Mails>();
const mailsOf = (label: string): Mails => mails.get(label) ?? { numbers: new Set(), count: 0, last: 0 };
const subjectPattern = new RegExp(`^Subject: .*${runTag}-(\\w+) (\\d+)`, 'im');

/** A mail to the support inbox about a submission of this run counts for its load's label. */
function received(head: string): void {
  const match = /^To: .*support@example\.com/im.test(head) ? subjectPattern.exec(head) : null;
  if (!match) return;
  const [, label = '', number = ''] = match;
  const entry = mailsOf(label);
  entry.numbers.add(number);
  entry.count += 1;
  entry.last = performance.now();
  mails.set(label, entry);
}
let sink: SmtpSink | undefined;

/** How many submissions of `label` the side stored: autocannon stops counting at its end, a request in flight may still be stored. */
async function stored(databaseUrl: string, side: Side, label: string): Promise<number> {
  const [{ count }] = await sql(databaseUrl, `SELECT count(*)::int AS count FROM ${TABLES[side]} WHERE subject LIKE $1`, [`${runTag}-${label} %`]);
  return count;
}

/** Transactions committed in the bench database so far (Postgres flushes these counts about once a second). */
async function commits(databaseUrl: string): Promise<number> {
  const [{ count }] = await sql(databaseUrl, 'SELECT xact_commit::bigint::text AS count FROM pg_stat_database WHERE datname = current_database()');
  return Number(count);
}

/** Waits until every stored submission of `labels` has its mail, or `DELIVERY_WINDOW_MS` passed. */
async function drained(databaseUrl: string, side: Side, labels: string[]): Promise<{ stored: number; mailed: number; sent: number }> {
  const since = Date.now();
  for (;;) {
    const counts = await Promise.all(labels.map((label) => stored(databaseUrl, side, label)));
    const total = counts.reduce((sum, count) => sum + count, 0);
    const mailed = labels.reduce((sum, label) => sum + mailsOf(label).numbers.size, 0);
    if (mailed >= total || Date.now() - since > DELIVERY_WINDOW_MS) {
      return { stored: total, mailed, sent: labels.reduce((sum, label) => sum + mailsOf(label).count, 0) };
    }
    await sleep(200);
  }
}

try {
  sink = await startSmtpSink(received);
  const smtpUrl = sink.url;
  system = await startProductionSystem(
    'bench-feedback',
    {
      TRUST_PROXY: '1',
      BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
      JWT_PRIVATE_KEY: privateKeyPem,
      SMTP_URL: smtpUrl,
      EMAIL_CONCURRENCY: String(SMTP_CONNECTIONS),
    },
    profiled,
  );
  const databaseUrl = system.databaseUrl;
  const urls: Record<Side, string> = { product: system.gatewayUrl, ceiling: '' };

  await copyTables(databaseUrl, FEEDBACK_TABLES);
  urls.ceiling = await startWriteCeiling({ databaseUrl, port: await freePort(), privateKeyPem });
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const queue = `bench.${runTag}.ceiling-mail`;
  startProcess('mail-pipeline', PIPELINE, {
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqpUrl,
    SMTP_URL: smtpUrl,
    SMTP_CONNECTIONS: String(SMTP_CONNECTIONS),
    CEILING_SCHEMA,
    QUEUE: queue,
    NOTIFIER_DIST,
  });
  const broker = await amqplib.connect(amqpUrl);
  for (const since = Date.now(); ; await sleep(200)) {
    // A queue not declared yet closes the channel that asked: each look takes a channel of its own.
    const probe = await broker.createChannel();
    probe.on('error', () => undefined);
    const consumers = await probe.checkQueue(queue).then(
      (info) => info.consumerCount,
      () => 0,
    );
    await probe.close().catch(() => undefined);
    if (consumers > 0) break;
    if (Date.now() - since > 60_000) throw new Error('the ceiling mail pipeline did not start consuming');
  }
  await broker.close().catch(() => undefined);

  const load = (side: Side, label: string, options: Partial<AutocannonOptions> = {}): AutocannonOptions => ({
    url: urls[side],
    connections,
    duration: seconds,
    requests: [{ method: 'POST', path: PATHS[side], setupRequest: submissions(label) }],
    ...options,
  });

  console.log(`bench/feedback: ${rounds} alternating rounds of ${seconds} s at ${connections} connections, each drained of its mail before the next\n`);
  for (const side of ['product', 'ceiling'] as const) {
    await autocannon(load(side, `${side[0]}warm`, { duration: 2 }));
    await drained(databaseUrl, side, [`${side[0]}warm`]);
  }
  const accepted: Record<Side, number[]> = { product: [], ceiling: [] };
  const mailed: Record<Side, number[]> = { product: [], ceiling: [] };
  const cpu: Record<Side, { before?: CpuTimes; after?: CpuTimes; submissions: number }[]> = { product: [], ceiling: [] };
  const undelivered: Record<Side, number> = { product: 0, ceiling: 0 };
  const transactions: Record<Side, number> = { product: 0, ceiling: 0 };
  const submitted: Record<Side, number> = { product: 0, ceiling: 0 };
  for (let round = 0; round < rounds; round += 1) {
    for (const side of ['product', 'ceiling'] as const) {
      const label = `${side[0]}${round}`;
      const before = cpuTimes();
      const commitsBefore = await commits(databaseUrl);
      const start = performance.now();
      const result = await autocannon(load(side, label));
      if (side === 'ceiling' && result.non2xx + result.errors > 0) throw new Error(`the write ceiling: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      // Accepted submissions per second: a refused one (throttle, error) does not count.
      accepted[side].push(result['2xx'] / (result.duration || seconds));
      const delivery = await drained(databaseUrl, side, [label]);
      cpu[side].push({ before, after: cpuTimes(), submissions: delivery.stored });
      transactions[side] += (await commits(databaseUrl)) - commitsBefore;
      submitted[side] += delivery.stored;
      undelivered[side] += delivery.stored - delivery.mailed;
      mailed[side].push(delivery.mailed / ((mailsOf(label).last - start) / 1000 || 1));
    }
  }
  const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  const cpuNote = (side: Side) => {
    const spans = cpu[side];
    const total = (pick: 'before' | 'after') =>
      spans.reduce<CpuTimes>((sum, span) => {
        for (const [name, ms] of Object.entries(span[pick] ?? {})) sum[name] = (sum[name] ?? 0) + ms;
        return sum;
      }, {});
    return cpuPerRequest(
      total('before'),
      total('after'),
      spans.reduce((sum, span) => sum + span.submissions, 0),
    ).replace('per request', 'per submission');
  };
  const ratio = mean(accepted.product) / mean(accepted.ceiling);
  const mailRatio = mean(mailed.product) / mean(mailed.ceiling);
  const load1 = (loadavg()[0] ?? 0).toFixed(2);
  console.log(`accepted guest submissions: ${mean(accepted.product).toFixed(0)} /s (rounds ${rates(accepted.product)})`);
  console.log(`ceiling:                    ${mean(accepted.ceiling).toFixed(0)} /s (rounds ${rates(accepted.ceiling)})`);
  console.log(`ratio ${ratio.toFixed(2)} (target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'})`);
  console.log(`support mails delivered:    ${mean(mailed.product).toFixed(0)} /s (rounds ${rates(mailed.product)})`);
  console.log(`ceiling:                    ${mean(mailed.ceiling).toFixed(0)} /s (rounds ${rates(mailed.ceiling)})`);
  console.log(`ratio ${mailRatio.toFixed(2)} (target >= ${TARGET}: ${mailRatio >= TARGET ? 'met' : 'NOT met'})`);
  console.log(`product ${cpuNote('product')}`);
  console.log(`ceiling ${cpuNote('ceiling')}`);
  const perSubmission = (side: Side) => (transactions[side] / (submitted[side] || 1)).toFixed(2);
  console.log(`database transactions per submission (every process, this bench's own polls included): product ${perSubmission('product')}, ceiling ${perSubmission('ceiling')}`);
  console.log(`load average ${load1}; not mailed within ${DELIVERY_WINDOW_MS / 1000} s of a round: product ${undelivered.product}, ceiling ${undelivered.ceiling}\n`);
  const ceilingName = 'the pipeline ceiling (bare Fastify + pg writing both rows in one transaction, bare pg relay with confirms, bare amqplib consumer mailing with nodemailer)';
  const note = `${rounds} alternating rounds of ${seconds} s, ${connections} connections, each drained of its mail before the next, load average ${load1}`;
  reportResult({
    figure: `accepted guest feedback vs ${ceilingName}`,
    product: mean(accepted.product),
    ceiling: mean(accepted.ceiling),
    unit: 'req/s',
    target: { op: '>=', value: TARGET },
    note: `${note}; product ${cpuNote('product')}; ceiling ${cpuNote('ceiling')}`,
  });
  reportResult({
    figure: 'feedback support mails delivered (round start to its last mail) vs the pipeline ceiling',
    product: mean(mailed.product),
    ceiling: mean(mailed.ceiling),
    unit: 'mails/s',
    target: { op: '>=', value: TARGET },
    note,
  });

  const rate = mean(accepted.ceiling) / 2;
  const product = await atFixedRate(load('product', 'platency'), rate);
  const bare = await atFixedRate(load('ceiling', 'clatency'), rate);
  console.log(`at ${rate.toFixed(0)} /s: p99 ${product.p99} ms through the gateway (p50 ${product.p50}), ${bare.p99} ms bare (p50 ${bare.p50})\n`);
  reportLatency({ route: 'guest feedback', rate, product, ceiling: bare, ceilingName: 'the write ceiling', note: `${connections} connections, ${seconds} s each` });

  const productLabels = [...Array(rounds).keys()].map((round) => `p${round}`).concat('pwarm', 'platency');
  const delivery = await drained(databaseUrl, 'product', productLabels);
  const missing = Math.max(0, delivery.stored - delivery.mailed);
  const duplicates = delivery.sent - delivery.mailed;
  console.log(`accepted submissions: ${delivery.stored} stored; support mails: ${delivery.sent} (${delivery.mailed} distinct submissions)`);
  console.log(`not in the mailbox: ${missing} (target 0: ${missing === 0 ? 'met' : 'NOT met'}); duplicates: ${duplicates}`);
  reportResult({
    figure: `feedback mails missing ${DELIVERY_WINDOW_MS / 1000} s after the load`,
    product: missing,
    unit: 'mails',
    target: { op: '<=', value: 0 },
    note: `of ${delivery.stored} stored; ${duplicates} duplicates`,
  });
  reportResult({ figure: 'feedback mails sent twice', product: duplicates, unit: 'mails', target: { op: '<=', value: 0 }, note: `of ${delivery.stored} stored` });
} finally {
  await stopAll();
  await system?.shutdown();
  await sink?.close();
}
