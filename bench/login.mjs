#!/usr/bin/env node
// `node bench/login.mjs` (after `npm run build`): one bounded run on this machine, against a fresh
// database that is dropped at the end. Needs Postgres and Redis (DATABASE_URL, REDIS_URL).
//
// 1. raw argon2id verifications/s: identity's own parameters (ARGON2_OPTIONS from its build),
//    `cores` verifications in flight, in a process of its own;
// 2. POST /api/mobile/auth/login/email through the gateway, `cores` connections;
//    ratio 1 / 2 (target >= 0.8: login costs little beyond its argon2id verification);
// 3. POST /api/mobile/auth/refresh through the gateway, `cores` connections over `cores` sessions,
//    every request presenting the live token of its session (the one the previous refresh returned);
// 4. the gateway's GET /health/live, `cores` connections; ratio 3 / 4 (target >= 0.5).
//
// The login throttle (10 per minute per ip+email) would answer 429 after ten requests: the gateway
// runs with TRUST_PROXY=true and every login carries its own X-Forwarded-For, so each request is a
// first attempt for the throttle (whose Redis round trip is still paid and measured).
// Without services/gateway/dist the login and refresh figures are taken from identity directly,
// and the output says so.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const identityMain = `${root}services/identity/dist/main.js`;
const userCreateCli = `${root}services/identity/dist/cli/user-create.js`;
const gatewayMain = `${root}services/gateway/dist/main.js`;
const cores = availableParallelism();
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const password = 'B3nch!mark';

if (!existsSync(identityMain)) {
  console.error('bench/login: services/identity/dist is missing; run `npm run build` first');
  process.exit(1);
}
const withGateway = existsSync(gatewayMain);

const children = [];
const database = `bench_identity_${randomBytes(5).toString('hex')}`;
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${database}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function start(name, script, env) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  children.push(child);
  return child;
}

async function waitFor(url, deadlineMs = 30_000) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${deadlineMs / 1000} s`);
}

async function post(url, body, headers = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** argon2id verifications/s with `cores` in flight, in a child whose libuv pool has `cores` threads. */
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
    env: { ...process.env, UV_THREADPOOL_SIZE: String(Math.max(4, cores)) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`argon2 measurement failed: ${result.stderr}`);
  return Number(result.stdout);
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: cores, pipelining: 1, duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function summary(label, result) {
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ${result.requests.total} requests${failures ? `, ${failures} FAILED (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
  );
  return result.requests.average;
}

async function main() {
  await admin(`CREATE DATABASE "${database}"`);
  const identityPort = await freePort();
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const jwksUrl = `${identityUrl}/.well-known/jwks.json`;
  start('identity', identityMain, {
    DATABASE_URL: databaseUrl.href,
    PORT: String(identityPort),
    JWKS_URL: jwksUrl,
    UV_THREADPOOL_SIZE: String(Math.max(4, cores)),
  });
  await waitFor(`${identityUrl}/health/ready`);

  let base = identityUrl;
  if (withGateway) {
    const gatewayPort = await freePort();
    start('gateway', gatewayMain, { PORT: String(gatewayPort), HOST: '127.0.0.1', IDENTITY_URL: identityUrl, JWKS_URL: jwksUrl, TRUST_PROXY: 'true' });
    base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/health/live`);
  }

  const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
  const created = spawnSync(process.execPath, [userCreateCli, '--email', email, '--role', 'customer', '--password', password], {
    env: { ...process.env, DATABASE_URL: databaseUrl.href },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`user:create failed: ${created.stderr}`);

  console.log(`bench/login: ${cores} cores, ${cores} connections, ${seconds} s per measurement, ${withGateway ? 'through the gateway' : 'identity directly (services/gateway/dist is missing: no gateway figures)'}`);
  const argon2Rate = rawArgon2Rate();
  console.log(`${'raw argon2id verify'.padEnd(34)} ${argon2Rate.toFixed(0).padStart(7)} verifications/s (m=19456 KiB, t=2, p=1)`);

  let client = 0;
  const loginBody = JSON.stringify({ email, password });
  const login = summary(
    'POST /api/mobile/auth/login/email',
    await run({
      url: base,
      requests: [
        {
          method: 'POST',
          path: '/api/mobile/auth/login/email',
          setupRequest: (request) => {
            client += 1;
            const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
            return { ...request, headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: loginBody };
          },
        },
      ],
    }),
  );

  // One session per connection. A pool holds the live refresh token of each session not in flight:
  // a request takes one, its response puts the rotated successor back. (autocannon resets a
  // connection's context after each pass over its request list, so the chain cannot live there.)
  const pool = [];
  for (let index = 0; index < cores; index += 1) {
    pool.push((await post(`${base}/api/mobile/auth/login/email`, { email, password }, { 'x-forwarded-for': `10.255.0.${index + 1}` })).refreshToken);
  }
  const refresh = summary(
    'POST /api/mobile/auth/refresh',
    await run({
      url: base,
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
    }),
  );

  const live = summary(`GET /health/live (${withGateway ? 'gateway' : 'identity'})`, await run({ url: `${base}/health/live` }));

  console.log('');
  console.log(`login / raw argon2id   = ${(login / argon2Rate).toFixed(2)}  (target >= 0.80)`);
  console.log(`refresh / health/live  = ${(refresh / live).toFixed(2)}  (target >= 0.50)`);
}

async function stop() {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)))));
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((error) => console.error(`bench/login: could not drop ${database}: ${error.message}`));
}

try {
  await main();
} catch (error) {
  console.error(`bench/login: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await stop();
}
