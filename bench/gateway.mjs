#!/usr/bin/env node
// Gateway overhead: the same `/health/live` body answered by a bare Fastify server and by the real
// gateway (built: `npm run build -w @school/gateway`), plus one proxied route (gateway -> bare
// server standing in for identity). Each server runs in its own process; autocannon runs here.
//
// Two passes per target (lessons.md #10): closed loop for throughput, then a fixed rate (the same
// for every target) for latency, since closed-loop latency flatters slow servers.
//
//   node bench/gateway.mjs              # 10 s per measurement, 2 s warm-up
//   BENCH_DURATION=20 BENCH_CONNECTIONS=100 node bench/gateway.mjs
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { reportResult } from './support.mjs';

const LIVE_BODY = { message: 'OK', data: { status: 'ok' }, errorCode: null };
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = fileURLToPath(new URL('..', import.meta.url));

// ---- server roles (child processes) ----------------------------------------------------------

async function serveBare() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/health/live', async () => LIVE_BODY);
  // Stands in for identity behind the gateway.
  app.get('/.well-known/jwks.json', async () => LIVE_BODY);
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address().port);
}

async function serveGateway() {
  // As in production (main.js): OpenTelemetry first.
  await import(new URL('../services/gateway/dist/instrument.js', import.meta.url).href);
  const { parseConfig } = await import('@school/config');
  const { buildGateway } = await import(new URL('../services/gateway/dist/app.js', import.meta.url).href);
  const { gatewayEnv } = await import(new URL('../services/gateway/dist/config.js', import.meta.url).href);
  const config = parseConfig(gatewayEnv, { ...process.env, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildGateway(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address().port);
}

/** The port goes to fd 3, so the server's own stdout (its logs) can go to /dev/null. */
function announce(port) {
  writeSync(3, `${JSON.stringify({ port })}\n`);
}

// ---- orchestration ---------------------------------------------------------------------------

async function startChild(role, env = {}) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), role], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  const [line] = await Promise.race([
    once(createInterface({ input: child.stdio[3] }), 'line'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`${role} server exited (${code}) before listening`))),
  ]);
  return { child, url: `http://127.0.0.1:${JSON.parse(line).port}` };
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(name, url) {
  await run({ url, duration: WARMUP });
  const result = await run({ url, duration: DURATION });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { name, url, rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

async function measureAtRate(target, rate) {
  const result = await run({ url: target.url, duration: DURATION, overallRate: rate });
  return { ...target, fixedP50: result.latency.p50, fixedP99: result.latency.p99, fixedRps: result.requests.average };
}

async function main() {
  const bare = await startChild('serve-bare');
  const gateway = await startChild('serve-gateway', { IDENTITY_URL: bare.url });
  try {
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${WARMUP} s warm-up, ${DURATION} s per measurement; node ${process.version}, ` +
        `${availableParallelism()} CPUs, gateway LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`,
    );
    const targets = [];
    for (const [name, url] of [
      ['bare Fastify /health/live', `${bare.url}/health/live`],
      ['gateway /health/live', `${gateway.url}/health/live`],
      ['gateway proxied -> bare', `${gateway.url}/.well-known/jwks.json`],
    ]) {
      targets.push(await measure(name, url));
    }
    // Half of the slowest closed-loop throughput: a load every target sustains.
    const rate = Math.max(100, Math.floor(Math.min(...targets.map((target) => target.rps)) / 2));
    const results = [];
    for (const target of targets) results.push(await measureAtRate(target, rate));

    console.log('\nclosed loop (throughput)');
    console.table(results.map((r) => ({ target: r.name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99 })));
    console.log(`fixed rate ${rate} req/s (latency)`);
    console.table(results.map((r) => ({ target: r.name, 'req/s': Math.round(r.fixedRps), 'p50 ms': r.fixedP50, 'p99 ms': r.fixedP99 })));
    const [bareResult, liveResult, proxiedResult] = results;
    console.log(`gateway/bare req/s ratio: ${(liveResult.rps / bareResult.rps).toFixed(2)} (health/live), ${(proxiedResult.rps / bareResult.rps).toFixed(2)} (proxied)`);
    console.log(`gateway/bare p99 ratio at ${rate} req/s: ${(liveResult.fixedP99 / Math.max(bareResult.fixedP99, 1)).toFixed(2)} (health/live), ${(proxiedResult.fixedP99 / Math.max(bareResult.fixedP99, 1)).toFixed(2)} (proxied)`);
    reportResult({ figure: 'gateway /health/live vs bare Fastify', product: liveResult.rps, ceiling: bareResult.rps, unit: 'req/s' });
    reportResult({ figure: 'gateway proxied route vs bare Fastify', product: proxiedResult.rps, ceiling: bareResult.rps, unit: 'req/s' });
    reportResult({ figure: `gateway /health/live p99 at ${rate} req/s vs bare`, product: liveResult.fixedP99, ceiling: Math.max(bareResult.fixedP99, 1), unit: 'ms' });
  } finally {
    for (const { child } of [gateway, bare]) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const role = process.argv[2];
if (role === 'serve-bare') await serveBare();
else if (role === 'serve-gateway') await serveGateway();
else await main();
