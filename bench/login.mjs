#!/usr/bin/env node
// `node bench/login.mjs` (after `npm run build`): one bounded run on this machine, against a fresh
// database that is dropped at the end. Needs Postgres and Redis (DATABASE_URL, REDIS_URL).
//
// 1. raw argon2id verifications/s: identity's own parameters (ARGON2_OPTIONS from its build),
//    `cores` verifications in flight (the most that run at once: one per core), in a process of its own;
// 2. POST /api/mobile/auth/login/email through the gateway, 2 x `cores` connections: identity runs
//    `cores` verifications at once, the other logins meanwhile do their SQL, signing and proxying;
//    1 and 2 alternate for BENCH_ROUNDS (default 3) rounds of BENCH_SECONDS (default 10) each;
//    ratio of their means (target >= 0.8: login costs little beyond its argon2id verification);
// 3. POST /api/mobile/auth/refresh through the gateway, BENCH_CONNECTIONS (default 16) connections
//    over as many sessions, every request presenting the live token of its session (the one the
//    previous refresh returned);
// 4. the gateway's GET /health/live, the same connections; ratio 3 / 4 (target >= 0.5);
// 5. GET /.well-known/jwks.json through the gateway, the same connections: a proxied route whose
//    service answers from memory. No proxied route can be faster, so 5 / 4 bounds ratio 3 / 4.
//
// On Linux each line also prints the CPU time per request of every process involved (/proc), which
// says where a request's cost goes.
//
// The login throttle (10 per minute per ip+email) would answer 429 after ten requests: the gateway
// runs with TRUST_PROXY=true and every login carries its own X-Forwarded-For, so each request is a
// first attempt for the throttle (whose Redis round trip is still paid and measured).
// Without services/gateway/dist the login and refresh figures are taken from identity directly,
// and the output says so.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '@school/testing';
import { freshDatabase, processes, reportResult, startProcess, stopAll, waitFor } from './support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const identityMain = `${root}services/identity/dist/main.js`;
const userCreateCli = `${root}services/identity/dist/cli/user-create.js`;
const gatewayMain = `${root}services/gateway/dist/main.js`;
const cores = availableParallelism();
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const password = 'B3nch!mark';

if (!existsSync(identityMain)) {
  console.error('bench/login: services/identity/dist is missing; run `npm run build` first');
  process.exit(1);
}
const withGateway = existsSync(gatewayMain);

let database;
let databaseUrl;

async function post(url, body, headers = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** argon2id verifications/s with `cores` in flight, in a child whose libuv pool has a thread more. */
function rawArgon2Rate() {
  const script = `
    import argon2 from 'argon2';
    import { ARGON2_OPTIONS } from ${JSON.stringify(`${root}services/identity/dist/passwords/password-hasher.js`)};
    const hash = await argon2.hash(${JSON.stringify(password)}, ARGON2_OPTIONS);
    await argon2.verify(hash, ${JSON.stringify(password)});
    const until = Date.now() + ${seconds * 1000};
    let count = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: ${cores} }, async () => {
      while (Date.now() < until) { if (!(await argon2.verify(hash, ${JSON.stringify(password)}))) throw new Error('verify failed'); count += 1; }
    }));
    process.stdout.write(String(count / ((performance.now() - started) / 1000)));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: `${root}services/identity`,
    env: { ...process.env, UV_THREADPOOL_SIZE: String(Math.max(4, cores + 1)) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`argon2 measurement failed: ${result.stderr}`);
  return Number(result.stdout);
}

/** CPU time (ms) so far of this process, the children and every postgres and redis-server process, by name. */
function cpuTimes() {
  if (!existsSync('/proc/self/stat')) return undefined;
  const names = new Map([[process.pid, 'bench'], ...processes().map((child) => [child.pid, child.name])]);
  const times = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const name = names.get(Number(entry)) ?? (['postgres', 'redis-server'].includes(command) ? command : undefined);
    if (!name) continue;
    const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
    times[name] = (times[name] ?? 0) + ((utime + stime) * 1000) / clockTicks;
  }
  return times;
}
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

async function run(label, options) {
  const before = cpuTimes();
  const result = await new Promise((resolve, reject) => {
    autocannon({ connections: cores, pipelining: 1, duration: seconds, ...options }, (error, outcome) => (error ? reject(error) : resolve(outcome)));
  });
  const after = cpuTimes();
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(38)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ${result.requests.total} requests${failures ? `, ${failures} FAILED (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
  );
  if (before && after && result.requests.total > 0) {
    const perRequest = Object.entries(after)
      .map(([name, ms]) => [name, (ms - (before[name] ?? 0)) / result.requests.total])
      .filter(([, ms]) => ms >= 0.01)
      .sort((a, b) => b[1] - a[1]);
    console.log(`${''.padEnd(38)} CPU ms per request: ${perRequest.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ')}`);
  }
  return result.requests.average;
}

async function main() {
  database = await freshDatabase('bench_identity');
  databaseUrl = new URL(database.url);
  const identityPort = await freePort();
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const jwksUrl = `${identityUrl}/.well-known/jwks.json`;
  startProcess('identity', identityMain, {
    DATABASE_URL: databaseUrl.href,
    PORT: String(identityPort),
    JWKS_URL: jwksUrl,
    UV_THREADPOOL_SIZE: String(Math.max(4, cores + 1)),
  });
  await waitFor(`${identityUrl}/health/ready`);

  let base = identityUrl;
  if (withGateway) {
    const gatewayPort = await freePort();
    startProcess('gateway', gatewayMain, { PORT: String(gatewayPort), HOST: '127.0.0.1', IDENTITY_URL: identityUrl, JWKS_URL: jwksUrl, TRUST_PROXY: 'true' });
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
  const loginRequest = {
    method: 'POST',
    path: '/api/mobile/auth/login/email',
    setupRequest: (request) => {
      client += 1;
      const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
      return { ...request, headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: loginBody };
    },
  };
  // Warm-up, not counted: first requests compile code paths and open the database pool.
  await new Promise((resolve, reject) => {
    autocannon({ url: base, connections: 2 * cores, duration: Math.min(3, seconds), requests: [loginRequest] }, (error) => (error ? reject(error) : resolve()));
  });
  const argon2Rates = [];
  const loginRates = [];
  for (let round = 1; round <= rounds; round += 1) {
    const argon2Rate = rawArgon2Rate();
    argon2Rates.push(argon2Rate);
    console.log(`${`raw argon2id verify (${cores} at once)`.padEnd(38)} ${argon2Rate.toFixed(0).padStart(7)} verifications/s  (round ${round} of ${rounds}; m=19456 KiB, t=2, p=1)`);
    loginRates.push(await run(`POST /api/mobile/auth/login/email (${2 * cores})`, { url: base, connections: 2 * cores, requests: [loginRequest] }));
  }
  const argon2Rate = mean(argon2Rates);
  const login = mean(loginRates);

  // One session per connection. A pool holds the live refresh token of each session not in flight:
  // a request takes one, its response puts the rotated successor back. (autocannon resets a
  // connection's context after each pass over its request list, so the chain cannot live there.)
  const pool = [];
  for (let index = 0; index < connections; index += 1) {
    pool.push((await post(`${base}/api/mobile/auth/login/email`, { email, password }, { 'x-forwarded-for': `10.255.0.${index + 1}` })).refreshToken);
  }
  const refresh = await run(`POST /api/mobile/auth/refresh (${connections})`, {
    url: base,
    connections,
    requests: [
      {
        method: 'POST',
        path: '/api/mobile/auth/refresh',
        setupRequest: (request) => ({ ...request, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: pool.shift() ?? 'exhausted' }) }),
        onResponse: (status, body) => {
          if (status === 200) pool.push(JSON.parse(body).data.refreshToken);
        },
      },
    ],
  });

  const live = await run(`GET /health/live (${withGateway ? 'gateway' : 'identity'}, ${connections})`, { url: `${base}/health/live`, connections });
  const proxied = withGateway ? await run(`GET /.well-known/jwks.json (${connections})`, { url: `${base}/.well-known/jwks.json`, connections }) : undefined;

  console.log('');
  console.log(`login / raw argon2id   = ${(login / argon2Rate).toFixed(2)}  (${login.toFixed(0)} / ${argon2Rate.toFixed(0)}, means of ${rounds} rounds; target >= 0.80)`);
  console.log(`refresh / health/live  = ${(refresh / live).toFixed(2)}  (target >= 0.50)`);
  if (proxied !== undefined) console.log(`jwks / health/live     = ${(proxied / live).toFixed(2)}  (the most any proxied route can reach)`);
  reportResult({ figure: 'login vs raw argon2id verifications', product: login, ceiling: argon2Rate, unit: '/s', target: { op: '>=', value: 0.8 } });
  reportResult({ figure: 'refresh vs gateway /health/live', product: refresh, ceiling: live, unit: 'req/s', target: { op: '>=', value: 0.5 } });
  if (proxied !== undefined) reportResult({ figure: 'JWKS through the gateway vs /health/live', product: proxied, ceiling: live, unit: 'req/s' });
}

async function stop() {
  await stopAll();
  await database?.drop();
}

try {
  await main();
} catch (error) {
  console.error(`bench/login: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await stop();
}
