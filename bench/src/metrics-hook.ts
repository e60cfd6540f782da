// Cost of the per-route request metrics (@school/metrics instrumentHttpRoutes, built: `npm run build`):
// the same Fastify route served by three processes, without hooks, with a no-op onResponse hook
// (what Fastify charges for running any), and with the metrics; CPU microseconds each process
// spends per request (Linux /proc), over interleaved rounds, which stays readable on a loaded
// machine where req/s does not.
//
//   npm run bench:metrics            # 5 rounds of 4 s at 50 connections
//   BENCH_ROUNDS=9 npm run bench:metrics
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const VARIANTS = ['no hook', 'no-op onResponse hook', 'request metrics'];
const CLOCK_TICKS_PER_SECOND = 100;

async function serve(variant: string | undefined): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  if (variant === VARIANTS[1]) app.addHook('onResponse', (_request, _reply, done) => done());
  if (variant === VARIANTS[2]) {
    const { createMetricsRegistry, instrumentHttpRoutes } = await import('@school/metrics');
    instrumentHttpRoutes(app, createMetricsRegistry());
  }
  app.get('/health/live', async () => ({ message: 'OK', data: { status: 'ok' }, errorCode: null }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  writeSync(3, `${(app.server.address() as AddressInfo).port}\n`);
}

interface Server {
  variant: string;
  child: ChildProcess;
  url: string;
}

async function start(variant: string): Promise<Server> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve', variant], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
  const [port] = (await once(createInterface({ input: child.stdio[3] as Readable }), 'line')) as [string];
  return { variant, child, url: `http://127.0.0.1:${port}/health/live` };
}

/** User + system CPU of a process in microseconds. */
function cpuMicros(pid: number | undefined): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

function load(url: string, duration: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => autocannon({ url, connections: 50, duration }, (error, result) => (error ? reject(error) : resolve(result))));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main() {
  const servers: Server[] = [];
  for (const variant of VARIANTS) servers.push(await start(variant));
  try {
    for (const server of servers) await load(server.url, 2);
    const results = new Map(VARIANTS.map((variant) => [variant, { cpu: [] as number[], rps: [] as number[] }]));
    const of = (variant: string) => results.get(variant) ?? { cpu: [], rps: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const before = cpuMicros(server.child.pid);
        const result = await load(server.url, DURATION);
        of(server.variant).cpu.push((cpuMicros(server.child.pid) - before) / result.requests.total);
        of(server.variant).rps.push(result.requests.average);
      }
    }
    console.log(`${ROUNDS} interleaved rounds of ${DURATION} s, 50 connections, GET /health/live`);
    console.table(
      VARIANTS.map((variant) => ({
        variant,
        'CPU µs/request (median)': median(of(variant).cpu).toFixed(1),
        'req/s (median)': Math.round(median(of(variant).rps)),
      })),
    );
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3]);
else await main();
