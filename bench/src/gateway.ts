// `npm run bench:gateway` (after `npm run build`): the gateway against Debian's nginx, both proxying
// identity's `GET /.well-known/jwks.json` (a route identity answers from memory: what remains is the
// proxy's own cost). One bounded run on a fresh database dropped at the end; needs Postgres and
// Redis, and /usr/sbin/nginx (`apt-get install -y nginx`; NGINX_BINARY elsewhere).
//
// Identity and the gateway run as `npm start` runs them (their own main.js, OpenTelemetry on,
// LOG_LEVEL info unless BENCH_LOG_LEVEL says otherwise), their logs going to files as a collector
// would take them; nginx runs with its packaged defaults, access log on (bench/src/nginx.ts). Rounds
// alternate nginx / gateway / a bare Fastify + @fastify/http-proxy (bench/src/ceilings/bare-proxy.ts:
// the gateway's proxy plugin with nothing else) / identity alone (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 8,
// at BENCH_CONNECTIONS, default 50) so a drift of the machine weighs on every side alike; the ratio
// of the means is reported (target >= 0.7, issue 36), and the gateway's against the bare proxy's (what the
// gateway's own work costs; target >= 0.95). Then each runs at a fixed rate of half nginx's
// throughput for p99 latency (lessons 10; the gateway's p99 over nginx's is reported), and the CPU
// time per request of every process is printed.
//
// BENCH_CPU_PROF=<dir> starts the gateway with `--cpu-prof` into that directory (for a flame graph) and
// prints, from that profile, what each of the gateway's hooks costs per request (bench/src/profile/hook-costs.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { atFixedRate, type RateRun, reportLatency } from './ceilings/fixed-rate.js';
import { printHookCosts } from './profile/hook-costs.js';
import { type Nginx, startNginx } from './nginx.js';
import { cpuPerRequest, cpuTimes, type FreshDatabase, freshDatabase, reportResult, startProcess, stopAll, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const PATH = '/.well-known/jwks.json';
/** Production refuses the development admin password; the bootstrap admin gets one of this run. */
const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

const config = await import('@school/config');
const { freePort } = await import('@school/testing');

function load(url: string, options: AutocannonOptions = {}): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

interface Target {
  name: string;
  url: string;
  rates: number[];
  latency?: RateRun;
  /** Every request sent to it, warm-up included (the profile's denominator). */
  requests: number;
}

async function measure(target: Target): Promise<number> {
  const before = cpuTimes(['postgres', 'redis-server', 'nginx']);
  const result = await load(target.url);
  target.requests += result.requests.total;
  const after = cpuTimes(['postgres', 'redis-server', 'nginx']);
  const failures = result.non2xx + result.errors;
  // A few socket errors on a machine under load are noise; more would make the rate meaningless.
  if (failures > result.requests.total / 1000) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  console.log(
    `${target.name.padEnd(22)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p99 ${result.latency.p99} ms   ${cpuPerRequest(before, after, result.requests.total)}${failures ? `  (${failures} failed)` : ''}`,
  );
  return result.requests.average;
}

const logs = mkdtempSync(join(tmpdir(), 'bench-gateway-logs-'));
/** Requests sent to the gateway, for its profile; set once the run is through. */
let gatewayRequests: number | undefined;
let database: FreshDatabase | undefined;
let nginx: Nginx | undefined;
try {
  database = await freshDatabase('bench_gateway');
  const ports = { identity: await freePort(), gateway: await freePort(), nginx: await freePort(), bareProxy: await freePort() };
  const environments = config.childEnvironments({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: logLevel,
    DATABASE_URL: database.url,
    DOTENV_PATH: '/dev/null',
    PORT: String(ports.gateway),
    HOST: '127.0.0.1',
    [config.servicePortVariable('identity')]: String(ports.identity),
    // Production refuses development defaults for secrets.
    OTP_SECRET: randomBytes(32).toString('hex'),
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    FORWARDING_SECRET: randomBytes(32).toString('hex'),
    BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  startProcess('identity', `${root}services/identity/dist/main.js`, environments.identity, { logFile: join(logs, 'identity.log') });
  const identity = `http://127.0.0.1:${ports.identity}`;
  await waitFor(`${identity}/health/ready`, 60_000);
  startProcess('gateway', `${root}services/gateway/dist/main.js`, environments.gateway, {
    logFile: join(logs, 'gateway.log'),
    nodeOptions: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
  });
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  await waitFor(`${gateway}/health/live`);
  startProcess('bare proxy', `${root}bench/dist/ceilings/bare-proxy.js`, { PORT: String(ports.bareProxy), UPSTREAM: identity });
  await waitFor(`http://127.0.0.1:${ports.bareProxy}${PATH}`);
  nginx = startNginx(ports.nginx, `127.0.0.1:${ports.identity}`);
  await waitFor(`http://127.0.0.1:${ports.nginx}${PATH}`);

  const targets: [Target, Target, Target, Target] = [
    { name: 'nginx -> identity', url: `http://127.0.0.1:${ports.nginx}${PATH}`, rates: [], requests: 0 },
    { name: 'gateway -> identity', url: `${gateway}${PATH}`, rates: [], requests: 0 },
    { name: 'bare proxy -> identity', url: `http://127.0.0.1:${ports.bareProxy}${PATH}`, rates: [], requests: 0 },
    { name: 'identity alone', url: `${identity}${PATH}`, rates: [], requests: 0 },
  ];
  console.log(
    `bench/gateway: GET ${PATH}; ${rounds} alternating rounds of ${seconds} s at ${connections} connections; ` +
      `${availableParallelism()} CPUs, node ${process.version}, ${nginx.version}, LOG_LEVEL=${logLevel}; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
  );
  for (const target of targets) target.requests += (await load(target.url, { duration: 2 })).requests.total; // warm-up
  for (let round = 1; round <= rounds; round += 1) {
    console.log(`round ${round} of ${rounds}`);
    for (const target of targets) target.rates.push(await measure(target));
  }
  const [viaNginx, viaGateway, viaBareProxy, alone] = targets;
  const rate = mean(viaNginx.rates) / 2;
  console.log(`\nfixed rate ${rate.toFixed(0)} req/s (half nginx's throughput; latency, lessons 10)`);
  for (const target of targets) {
    const latency = await atFixedRate({ url: target.url, connections, duration: seconds }, rate);
    target.latency = latency;
    target.requests += latency.result.requests.total;
    console.log(`${target.name.padEnd(22)} p50 ${latency.p50} ms  p99 ${latency.p99} ms  achieved ${latency.achieved.toFixed(0)} req/s`);
  }
  console.log(
    `\nmeans: nginx ${mean(viaNginx.rates).toFixed(0)}, gateway ${mean(viaGateway.rates).toFixed(0)}, bare proxy ${mean(viaBareProxy.rates).toFixed(0)}, identity alone ${mean(alone.rates).toFixed(0)} req/s; nginx access log ${nginx.accessLogBytes()} bytes`,
  );
  reportResult({
    figure: 'gateway proxied GET /.well-known/jwks.json vs nginx proxying the same route',
    product: mean(viaGateway.rates),
    ceiling: mean(viaNginx.rates),
    unit: 'req/s',
    target: { op: '>=', value: 0.7 },
    note: `${rounds} alternating rounds of ${seconds} s, ${connections} connections, LOG_LEVEL=${logLevel}, load average ${(loadavg()[0] ?? 0).toFixed(2)}`,
  });
  reportResult({
    figure: 'gateway proxied GET /.well-known/jwks.json vs a bare Fastify + @fastify/http-proxy (its proxy plugin alone) on the same route',
    product: mean(viaGateway.rates),
    ceiling: mean(viaBareProxy.rates),
    unit: 'req/s',
    target: { op: '>=', value: 0.95 },
    note: `what the gateway's auth, throttles, logging, tracing and metrics cost beyond Node's proxying; ${rounds} alternating rounds of ${seconds} s`,
  });
  gatewayRequests = viaGateway.requests;
  reportLatency({
    route: `proxied GET ${PATH}`,
    rate,
    product: viaGateway.latency!,
    ceiling: viaNginx.latency!,
    ceilingName: 'nginx proxying the same route',
    note: `identity alone: p99 ${alone.latency?.p99} ms`,
  });
} finally {
  await nginx?.stop();
  await stopAll();
  await database?.drop();
  rmSync(logs, { recursive: true, force: true });
}
// The gateway writes its profile as it exits; the newest one is this run's.
const profiles = cpuProfileDir
  ? readdirSync(cpuProfileDir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .sort()
  : [];
if (cpuProfileDir && gatewayRequests && profiles.length > 0) printHookCosts(join(cpuProfileDir, profiles.at(-1)!), gatewayRequests);
