// `npm run bench:enumeration` (after `npm run build`): does the time of an answer tell whether an
// account exists (contract §4)? One bounded run on this machine, against a fresh database that is
// dropped at the end. Needs Postgres, Redis and RabbitMQ (DATABASE_URL, REDIS_URL, AMQP_URL).
//
// For each of forgot, email-verification resend and reset by otp: BENCH_REQUESTS (default 200)
// requests, half for an existing account and half for an address no account has, in a random
// order, one at a time (a sequence of single requests is what an attacker times); each request's
// latency as the client sees it. Printed: the median of each half, and the accuracy of a
// median-threshold classifier (a request slower than the median of all of them is called
// "exists", or faster, whichever way the two medians lie); 50% is a coin, the target is <= 55%.
//
// A last, control line times two halves that both name nobody: what pure noise scores in the same
// run (with 200 requests, noise alone often reaches 53-56%).
//
// The existing half is the case where the most work would show:
// - forgot: a distinct existing account per request, each under the message cap (it gets a
//   credential and a message), and then a line where every existing request names one account,
//   capped after its fifth message of the hour;
// - resend: a distinct unverified account per request (only those get a link);
// - reset by otp (a wrong code): a distinct account per request, each holding a live reset, so the
//   wrong code is counted (a write) on the existing side.
// The accounts are written straight into identity's schema (as `user:create` would, without a
// password: none of the three routes reads one); their live resets come through the forgot route.
//
// Through the gateway: it runs with TRUST_PROXY=1 and every request carries its own
// X-Forwarded-For, so each request is a first one for the gateway's per-ip throttles (forgot 5,
// resend 5, reset 10 per 15 minutes), whose Redis round trip is still paid, by both halves alike.
// The per-account message cap of identity is not bypassed: it is part of what is measured.
// Without services/gateway/dist the figures are taken from identity directly, and the output says so.
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { freePort } from '@school/testing';
import { freshDatabase, type FreshDatabase, reportResult, runBench, sql, startProcess, stopAll, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const identityMain = `${root}services/identity/dist/main.js`;
const gatewayMain = `${root}services/gateway/dist/main.js`;
const cores = availableParallelism();
const requestsPerOperation = Number(process.env.BENCH_REQUESTS ?? 200);
const half = Math.floor(requestsPerOperation / 2);
const warmup = 20;
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = randomBytes(5).toString('hex');
const amqpPrefix = `bench-enumeration-${suffix}.`;
const WRONG_PASSWORD = 'B3nch!mark';

if (!existsSync(identityMain)) {
  console.error('bench/enumeration: services/identity/dist is missing; run `npm run build` first');
  process.exit(1);
}
const withGateway = existsSync(gatewayMain);

let database: FreshDatabase | undefined;

// Client ips 10.<run>.x.y: the throttles' counters outlive a run (15 minutes in Redis), so each run
// takes its own block of 65,536 addresses rather than reusing those of the run before.
const ipBlock = randomInt(256);
let client = 0;
/** One POST from an ip of its own; its latency in ms and its status. */
async function timedPost(base: string, path: string, body: unknown): Promise<{ ms: number; status: number }> {
  client += 1;
  if (client > 0xffff) throw new Error('more requests than client ips in the block');
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `10.${ipBlock}.${(client >> 8) & 255}.${client & 255}` };
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * `existing` and `absent` bodies, interleaved at random, one request at a time; every answer must
 * have `expectedStatus`. The medians and the median-threshold classifier's accuracy.
 */
async function measure(base: string, label: string, path: string, existing: object[], absent: object[], expectedStatus: number, names = ['exists', 'absent']): Promise<number> {
  const trials = shuffled([...existing.map((body) => ({ exists: true, body })), ...absent.map((body) => ({ exists: false, body }))]);
  const results: { exists: boolean; ms: number }[] = [];
  for (const trial of trials) {
    const { ms, status } = await timedPost(base, path, trial.body);
    if (status !== expectedStatus) throw new Error(`${label}: answered ${status}, expected ${expectedStatus}`);
    results.push({ exists: trial.exists, ms });
  }
  const existingMedian = median(results.filter((result) => result.exists).map((result) => result.ms));
  const absentMedian = median(results.filter((result) => !result.exists).map((result) => result.ms));
  const threshold = median(results.map((result) => result.ms));
  const slowerMeansExists = existingMedian >= absentMedian;
  const correct = results.filter((result) => result.ms > threshold === (slowerMeansExists ? result.exists : !result.exists)).length;
  const accuracy = correct / results.length;
  console.log(
    `${label.padEnd(44)} ${names[0]} ${existingMedian.toFixed(2).padStart(6)} ms  ${names[1]} ${absentMedian.toFixed(2).padStart(6)} ms  ratio ${(existingMedian / absentMedian).toFixed(3)}  classifier ${(accuracy * 100).toFixed(1).padStart(5)}%  ${accuracy <= 0.55 ? 'ok' : 'ABOVE TARGET'}`,
  );
  return accuracy;
}

async function waitForCredentials(count: number, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const [{ n }] = await sql(database!.url, `SELECT count(*)::int AS n FROM identity.verification_credentials WHERE purpose = 'password_reset'`);
    if (n >= count) return;
    await sleep(250);
  }
  throw new Error(`identity did not serve the ${count} forgot requests of the set-up within ${deadlineMs / 1000} s`);
}

async function main() {
  const loadBefore = loadavg();
  database = await freshDatabase('bench_enumeration');
  const databaseUrl = new URL(database.url);
  const identityPort = await freePort();
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const jwksUrl = `${identityUrl}/.well-known/jwks.json`;
  // Its own broker names: the events of the run (reset and verification messages) reach no consumer.
  startProcess('identity', identityMain, { DATABASE_URL: databaseUrl.href, PORT: String(identityPort), JWKS_URL: jwksUrl, AMQP_NAME_PREFIX: amqpPrefix });
  await waitFor(`${identityUrl}/health/ready`);

  let base = identityUrl;
  if (withGateway) {
    const gatewayPort = await freePort();
    startProcess('gateway', gatewayMain, { PORT: String(gatewayPort), HOST: '127.0.0.1', IDENTITY_URL: identityUrl, JWKS_URL: jwksUrl, TRUST_PROXY: '1' });
    base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/health/live`);
  }

  // Accounts: `half` for forgot, `half` for resend (unverified), `half` holding a live reset.
  const accounts = 3 * half;
  await sql(
    databaseUrl.href,
    `INSERT INTO identity.users (public_id, email, name, role, updated_at)
     SELECT gen_random_uuid(), 'bench.' || i || '.${suffix}@example.com', 'Bench Person', 'customer', now() FROM generate_series(1, $1::int) AS i`,
    [accounts],
  );
  const emails = Array.from({ length: accounts }, (_, index) => `bench.${index + 1}.${suffix}@example.com`);
  const forgotAccounts = emails.slice(0, half);
  const resendAccounts = emails.slice(half, 2 * half);
  const resetAccounts = emails.slice(2 * half);
  const nobody = (label: string, index: number) => `nobody.${label}.${index}.${suffix}@example.com`;

  for (const email of resetAccounts) {
    const { status } = await timedPost(base, '/api/mobile/auth/password/forgot', { email });
    if (status !== 200) throw new Error(`set-up: forgot answered ${status}`);
  }
  await waitForCredentials(half);

  const via = withGateway
    ? 'through the gateway (TRUST_PROXY=1, a distinct X-Forwarded-For per request: every request is a first for the per-ip throttles)'
    : 'identity directly (services/gateway/dist is missing: no gateway in the path)';
  console.log(
    `bench/enumeration: ${cores} cores, load average ${loadBefore.map((value) => value.toFixed(2)).join(' ')} before the run; ${requestsPerOperation} requests per line, one at a time, ${via}`,
  );

  // Warm-up, not counted: first requests compile code paths and open the database pool.
  for (let index = 0; index < warmup; index += 1) {
    const statuses = [
      (await timedPost(base, '/api/mobile/auth/password/forgot', { email: nobody('warm', index) })).status,
      (await timedPost(base, '/api/mobile/auth/email/verify/resend', { email: nobody('warm', index) })).status,
      (await timedPost(base, '/api/mobile/auth/password/reset', { email: nobody('warm', index), otp: '000000', password: WRONG_PASSWORD })).status,
    ];
    if (statuses.join() !== '200,200,400') throw new Error(`warm-up: answers ${statuses.join(', ')} (expected 200, 200, 400)`);
  }

  const accuracies: number[] = [];
  const absent = (label: string) => Array.from({ length: half }, (_, index) => ({ email: nobody(label, index) }));
  // A wrong code: a six-digit code none of the live resets holds is not knowable in advance, so
  // each is drawn and, in the unlikely case it is right, the run stops (the answer would be 200).
  const wrongCode = () => String(randomInt(1_000_000)).padStart(6, '0');
  // One account asked for again and again: capped after its fifth message of the hour.
  const capped = forgotAccounts[0];
  const trials: [label: string, path: string, existing: object[], missing: object[], status: number][] = [
    ['POST /api/mobile/auth/password/forgot', '/api/mobile/auth/password/forgot', forgotAccounts.map((email) => ({ email })), absent('forgot'), 200],
    ['POST /api/mobile/auth/email/verify/resend', '/api/mobile/auth/email/verify/resend', resendAccounts.map((email) => ({ email })), absent('resend'), 200],
    [
      'POST /api/mobile/auth/password/reset (otp)',
      '/api/mobile/auth/password/reset',
      resetAccounts.map((email) => ({ email, otp: wrongCode(), password: WRONG_PASSWORD })),
      absent('reset').map((body) => ({ ...body, otp: wrongCode(), password: WRONG_PASSWORD })),
      400,
    ],
    ['forgot, one account (capped after 5 an hour)', '/api/mobile/auth/password/forgot', Array.from({ length: half }, () => ({ email: capped })), absent('capped'), 200],
  ];
  for (const [label, path, existing, missing, status] of trials) accuracies.push(await measure(base, label, path, existing, missing, status));
  // Control: both halves name nobody, so any accuracy above 50% here is this machine's noise.
  const control = await measure(base, 'control: forgot, nobody in both halves', '/api/mobile/auth/password/forgot', absent('control-a'), absent('control-b'), 200, [
    'half 1',
    'half 2',
  ]);
  const [{ n: cappedMessages }] = await sql(
    databaseUrl.href,
    `SELECT count(*)::int AS n FROM identity.verification_credentials c JOIN identity.users u ON u.id = c.user_id WHERE u.email = $1`,
    [capped],
  );

  console.log('');
  console.log(
    `worst classifier accuracy = ${(Math.max(...accuracies) * 100).toFixed(1)}%  (target <= 55%; 50% is a coin; the control, with no difference at all, reached ${(control * 100).toFixed(1)}%)`,
  );
  console.log(`messages to the capped account: ${cappedMessages} of ${half + 1} requests (cap: 5 an hour)`);
  reportResult({
    figure: 'account enumeration: worst timing-classifier accuracy',
    product: Math.max(...accuracies),
    unit: 'accuracy',
    target: { op: '<=', value: 0.55 },
    note: `control (no difference) ${(control * 100).toFixed(1)}%, ${requestsPerOperation} requests per line`,
  });
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} after the run (${cores} cores; other processes on the machine add noise to both halves alike)`,
  );
}

async function stop() {
  await stopAll();
  await database?.drop();
  try {
    const connection = await amqp.connect(amqpUrl);
    const channel = await connection.createChannel();
    await channel.deleteExchange(`${amqpPrefix}events`);
    await connection.close();
  } catch (error) {
    console.error(`bench/enumeration: could not delete the exchange ${amqpPrefix}events: ${(error as Error).message}`);
  }
}

await runBench('enumeration', main, stop);
