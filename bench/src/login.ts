// `npm run bench:login` (after `npm run build`): one bounded run on this machine, against a fresh
// database that is dropped at the end. Needs Postgres and Redis (DATABASE_URL, REDIS_URL).
//
// 1. raw argon2id verifications/s: identity's default parameters (argon2Options() from its build),
//    `cores` verifications in flight (the most that run at once: one per core), in a process of its own;
// 2. POST /api/mobile/auth/login/email through the gateway, 2 x `cores` connections: identity runs
//    `cores` verifications at once, the other logins meanwhile do their SQL, signing and proxying;
//    1 and 2 alternate for BENCH_ROUNDS (default 3) rounds of BENCH_SECONDS (default 10) each;
//    ratio of their means (target >= 0.85: login costs little beyond its argon2id verification);
// 3. POST /api/mobile/auth/refresh through the gateway, BENCH_CONNECTIONS (default 16) connections
//    over as many sessions, every request presenting the live token of its session (the one the
//    previous refresh returned);
// 4. POST /refresh of the write ceiling (bench/src/ceilings/write-server.ts: a bare single-process
//    Fastify + `pg` server running identity's refresh statement, the conditional UPDATE ... RETURNING
//    rotation, on copies of identity's tables, and signing the access token as identity does), the
//    same connections over as many sessions of its own; 3 and 4 alternate for the same rounds;
//    ratio 3 / 4 (target >= 0.4);
// 5. latency at a fixed rate (bench/src/ceilings/fixed-rate.ts): login at half the raw argon2id rate
//    beside raw verifications arriving at that rate, refresh at half the ceiling's rate beside the
//    ceiling at that rate; the ratios of their p99.
//
// On Linux each line also prints the CPU time per request of every process involved (/proc), which
// says where a request's cost goes. BENCH_CPU_PROF=<dir> starts identity and the gateway with `--cpu-prof` into that directory.
//
// The login throttle (10 per minute per ip+email) would answer 429 after ten requests: the gateway
// runs with TRUST_PROXY=true and every login carries its own X-Forwarded-For, so each request is a
// first attempt for the throttle (whose Redis round trip is still paid and measured).
// Without services/gateway/dist the login and refresh figures are taken from identity directly,
// and the output says so.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonOptions, type AutocannonRequest } from 'autocannon';
import { freePort } from '@school/testing';
import { atFixedRate, type RateRun, reportLatency } from './ceilings/fixed-rate.js';
import { ceilingSessions, copyTables, REFRESH_TABLES, startWriteCeiling } from './ceilings/write-ceiling.js';
import { cpuPerRequest, cpuTimes, freshDatabase, type FreshDatabase, reportResult, runBench, startProcess, stopAll, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const identityMain = `${root}services/identity/dist/main.js`;
const userCreateCli = `${root}services/identity/dist/cli/user-create.js`;
const gatewayMain = `${root}services/gateway/dist/main.js`;
const cores = availableParallelism();
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const password = 'B3nch!mark';
const profiling = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

if (!existsSync(identityMain)) {
  console.error('bench/login: services/identity/dist is missing; run `npm run build` first');
  process.exit(1);
}
const withGateway = existsSync(gatewayMain);

let database: FreshDatabase | undefined;
let databaseUrl: URL;

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await response.json()) as { data: any };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Runs `body` in a child whose libuv pool has a thread more than the cores, after hashing the bench
 * password with identity's own parameters into `hash`; answers what the body writes to stdout.
 */
function inArgon2Child(body: string): string {
  const script = `
    import argon2 from 'argon2';
    import { argon2Options } from ${JSON.stringify(`${root}services/identity/dist/passwords/password-hasher.js`)};
    const password = ${JSON.stringify(password)};
    const hash = await argon2.hash(password, argon2Options());
    await argon2.verify(hash, password);
    const verify = async () => { if (!(await argon2.verify(hash, password))) throw new Error('verify failed'); };
    ${body}
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: `${root}services/identity`,
    env: { ...process.env, UV_THREADPOOL_SIZE: String(Math.max(4, cores + 1)) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`argon2 measurement failed: ${result.stderr}`);
  return result.stdout;
}

/** argon2id verifications/s with `cores` in flight. */
function rawArgon2Rate() {
  return Number(
    inArgon2Child(`
      const until = Date.now() + ${seconds * 1000};
      let count = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: ${cores} }, async () => { while (Date.now() < until) { await verify(); count += 1; } }));
      process.stdout.write(String(count / ((performance.now() - started) / 1000)));
    `),
  );
}

/**
 * Latency (ms) of argon2id verifications arriving at `rate` per second for BENCH_SECONDS, each timed
 * from its scheduled arrival (a late start counts as waiting, as autocannon counts it).
 */
function rawArgon2Latency(rate: number): RateRun {
  return JSON.parse(
    inArgon2Child(`
      const interval = 1000 / ${Math.max(1, rate)};
      const count = Math.max(1, Math.round(${seconds * 1000} / interval));
      const latencies = [];
      const started = performance.now();
      const arrivals = [];
      for (let index = 0; index < count; index += 1) {
        const due = started + index * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        arrivals.push(verify().then(() => latencies.push(performance.now() - due)));
      }
      await Promise.all(arrivals);
      const elapsed = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const at = (share) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]);
      process.stdout.write(JSON.stringify({ p50: at(0.5), p99: at(0.99), achieved: latencies.length / elapsed, failed: 0 }));
    `),
  );
}

async function run(label: string, options: AutocannonOptions): Promise<number> {
  const before = cpuTimes();
  const result = await autocannon({ connections: cores, pipelining: 1, duration: seconds, ...options });
  const after = cpuTimes();
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(38)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ${result.requests.total} requests${failures ? `, ${failures} FAILED (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
  );
  const cpu = cpuPerRequest(before, after, result.requests.total);
  if (cpu) console.log(`${''.padEnd(38)} ${cpu}`);
  // A figure of failed requests would flatter the route: the rate counts 2xx answers only.
  return (result.requests.average * (result.requests.total - result.non2xx - result.errors - result.timeouts)) / Math.max(1, result.requests.total);
}

async function main() {
  database = await freshDatabase('bench_identity');
  databaseUrl = new URL(database.url);
  const identityPort = await freePort();
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const jwksUrl = `${identityUrl}/.well-known/jwks.json`;
  startProcess(
    'identity',
    identityMain,
    {
      DATABASE_URL: databaseUrl.href,
      PORT: String(identityPort),
      JWKS_URL: jwksUrl,
      UV_THREADPOOL_SIZE: String(Math.max(4, cores + 1)),
    },
    { nodeOptions: profiling },
  );
  await waitFor(`${identityUrl}/health/ready`);

  let base = identityUrl;
  if (withGateway) {
    const gatewayPort = await freePort();
    startProcess(
      'gateway',
      gatewayMain,
      { PORT: String(gatewayPort), HOST: '127.0.0.1', IDENTITY_URL: identityUrl, JWKS_URL: jwksUrl, TRUST_PROXY: 'true' },
      { nodeOptions: profiling },
    );
    base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/health/live`);
  }

  const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
  const created = spawnSync(process.execPath, [userCreateCli, '--email', email, '--role', 'customer', '--password', password], {
    env: { ...process.env, DATABASE_URL: databaseUrl.href },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`user:create failed: ${created.stderr}`);

  const via = withGateway ? 'through the gateway' : 'identity directly (services/gateway/dist is missing: no gateway figures)';
  console.log(`bench/login: ${cores} cores, ${seconds} s per measurement, ${via}`);
  // Raw and login measurements alternate, so a drift in what the machine gives (other tenants, clock)
  // weighs on both sides of the ratio alike.
  let client = 0;
  const loginBody = JSON.stringify({ email, password });
  const loginRequest: AutocannonRequest = {
    method: 'POST',
    path: '/api/mobile/auth/login/email',
    setupRequest: (request) => {
      client += 1;
      const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
      return { ...request, headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: loginBody };
    },
  };
  // Warm-up, not counted: first requests compile code paths and open the database pool.
  await new Promise<void>((resolve, reject) => {
    autocannon({ url: base, connections: 2 * cores, duration: Math.min(3, seconds), requests: [loginRequest] }, (error) => (error ? reject(error) : resolve()));
  });
  const argon2Rates = [];
  const loginRates = [];
  for (let round = 1; round <= rounds; round += 1) {
    const argon2Rate = rawArgon2Rate();
    argon2Rates.push(argon2Rate);
    console.log(
      `${`raw argon2id verify (${cores} at once)`.padEnd(38)} ${argon2Rate.toFixed(0).padStart(7)} verifications/s  (round ${round} of ${rounds}; m=19456 KiB, t=2, p=1)`,
    );
    loginRates.push(await run(`POST /api/mobile/auth/login/email (${2 * cores})`, { url: base, connections: 2 * cores, requests: [loginRequest] }));
  }
  const argon2Rate = mean(argon2Rates);
  const login = mean(loginRates);

  // The refresh ceiling: identity's refresh statement on copies of its tables (with the user just
  // created), and the access token signed as identity signs it.
  await copyTables(databaseUrl.href, REFRESH_TABLES, { copyRows: ['users', 'provider_accounts'] });
  const ceilingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const ceilingUrl = await startWriteCeiling({ databaseUrl: databaseUrl.href, port: await freePort(), privateKeyPem: ceilingKey });

  // One session per connection. A pool holds the live refresh token of each session not in flight:
  // a request takes one, its response puts the rotated successor back. (autocannon resets a
  // connection's context after each pass over its request list, so the chain cannot live there.)
  // Requests still in flight when a round ends take their successors with them: every round
  // starts with sessions of its own.
  let sessions = 0;
  const productSessions = async () => {
    const tokens = [];
    for (let index = 0; index < connections; index += 1) {
      sessions += 1;
      const ip = `10.255.${(sessions >> 8) & 255}.${sessions & 255}`;
      tokens.push((await post(`${base}/api/mobile/auth/login/email`, { email, password }, { 'x-forwarded-for': ip })).refreshToken);
    }
    return tokens;
  };
  const refreshLoad = (url: string, path: string, pool: string[]): AutocannonOptions => ({
    url,
    connections,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (request) => ({ ...request, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: pool.shift() ?? 'exhausted' }) }),
        onResponse: (status, body) => {
          if (status === 200) pool.push((JSON.parse(body) as { data: { refreshToken: string } }).data.refreshToken);
        },
      },
    ],
  });
  const productRefresh = async () => refreshLoad(base, '/api/mobile/auth/refresh', await productSessions());
  const ceilingRefresh = async () => refreshLoad(ceilingUrl, '/refresh', await ceilingSessions(databaseUrl.href, email, 'mobile', connections));
  const refreshRates = [];
  const ceilingRates = [];
  for (let round = 1; round <= rounds; round += 1) {
    refreshRates.push(await run(`POST /api/mobile/auth/refresh (${connections})`, await productRefresh()));
    ceilingRates.push(await run(`write ceiling POST /refresh (${connections})`, await ceilingRefresh()));
  }
  const refresh = mean(refreshRates);
  const refreshCeiling = mean(ceilingRates);

  console.log('');
  const note = `means of ${rounds} alternating rounds of ${seconds} s, ${cores} cores, load average ${(loadavg()[0] ?? 0).toFixed(2)}`;
  reportResult({
    figure: `login (${2 * cores} connections) vs raw argon2id verifications (${cores} at once, same parameters)`,
    product: login,
    ceiling: argon2Rate,
    unit: 'req/s',
    target: { op: '>=', value: 0.85 },
    note,
  });
  reportResult({
    figure: `refresh ${withGateway ? 'through the gateway' : 'of identity directly'} vs the write ceiling (bare Fastify + pg: identity's rotation statement and token signing) (${connections} connections)`,
    product: refresh,
    ceiling: refreshCeiling,
    unit: 'req/s',
    target: { op: '>=', value: 0.4 },
    note,
  });

  // Latency at half the ceiling's rate, each route beside its ceiling at the same rate.
  const loginRate = argon2Rate / 2;
  const loginLatency = await atFixedRate({ url: base, connections: 2 * cores, duration: seconds, requests: [loginRequest] }, loginRate);
  const argon2Latency = rawArgon2Latency(loginRate);
  console.log(`login at ${loginRate.toFixed(0)}/s: p99 ${loginLatency.p99} ms (p50 ${loginLatency.p50}); raw argon2id p99 ${argon2Latency.p99} ms (p50 ${argon2Latency.p50})`);
  reportLatency({
    route: 'login',
    rate: loginRate,
    product: loginLatency,
    ceiling: argon2Latency,
    ceilingName: 'raw argon2id verifications (arrivals at that rate, no HTTP)',
    note: `${2 * cores} connections`,
  });
  const refreshRate = refreshCeiling / 2;
  const refreshLatency = await atFixedRate({ ...(await productRefresh()), duration: seconds }, refreshRate);
  const ceilingLatency = await atFixedRate({ ...(await ceilingRefresh()), duration: seconds }, refreshRate);
  console.log(
    `refresh at ${refreshRate.toFixed(0)}/s: p99 ${refreshLatency.p99} ms (p50 ${refreshLatency.p50}); write ceiling p99 ${ceilingLatency.p99} ms (p50 ${ceilingLatency.p50})`,
  );
  reportLatency({ route: 'refresh', rate: refreshRate, product: refreshLatency, ceiling: ceilingLatency, ceilingName: 'the write ceiling', note: `${connections} connections` });
}

async function stop() {
  await stopAll();
  await database?.drop();
}

await runBench('login', main, stop);
