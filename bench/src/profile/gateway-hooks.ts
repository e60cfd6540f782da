// `npm run bench:gateway-hooks` (after `npm run build`): the CPU time the gateway process spends per
// proxied request with each of its own costly parts switched off in turn, then a bare Fastify +
// @fastify/http-proxy's and nginx's on the same route: the load-robust side of what bench:gateway's
// profile (BENCH_CPU_PROF) splits by hook. An upstream in this process answers
// `GET /.well-known/jwks.json` with a fixed body; the gateway runs its own main.js as npm start runs it
// (production, OpenTelemetry on, LOG_LEVEL info); autocannon sends HOOKS_REQUESTS requests (default
// 20,000, HOOKS_ROUNDS rounds, default 3, after a warm-up) at HOOKS_CONNECTIONS (default 10), and the
// gateway's CPU time (Linux /proc) over the requests is the figure; the median round is printed.
// CPU time, unlike a rate, barely moves with what else runs on the machine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startNginx } from '../nginx.js';
import { cpuTimes, startProcess, stopAll, stopProcess, waitFor } from '../support.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const requests = Number(process.env.HOOKS_REQUESTS ?? 20_000);
const rounds = Number(process.env.HOOKS_ROUNDS ?? 3);
const connections = Number(process.env.HOOKS_CONNECTIONS ?? 10);
const PATH = '/.well-known/jwks.json';
const BODY = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: randomBytes(32).toString('base64url'), kid: randomBytes(8).toString('hex'), alg: 'EdDSA', use: 'sig' }] });

const config = await import('@school/config');
const { freePort } = await import('@school/testing');

const VARIANTS: readonly { name: string; env: Record<string, string> }[] = [
  { name: 'as shipped (access log, tracing)', env: {} },
  { name: 'no access log (LOG_LEVEL=warn)', env: { LOG_LEVEL: 'warn' } },
  { name: 'no tracing (OTEL_SDK_DISABLED=true)', env: { OTEL_SDK_DISABLED: 'true' } },
  { name: 'neither', env: { LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' } },
];

// Logs go to a file, as a collector would take them (writes to /dev/null would cost less than real ones).
const logs = mkdtempSync(join(tmpdir(), 'bench-gateway-hooks-'));
const upstream = createServer((request, response) => {
  response.writeHead(request.url === PATH ? 200 : 404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) }).end(BODY);
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamPort = (upstream.address() as AddressInfo).port;

const load = (url: string, amount: number) =>
  new Promise<number>((resolve, reject) => autocannon({ url, connections, amount }, (error, result) => (error ? reject(error) : resolve(result.requests.total))));

console.log(
  `bench/gateway-hooks: ${rounds} rounds of ${requests} requests at ${connections} connections; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
console.log('| proxy | CPU µs per request (median) | rounds |\n|---|---:|---|');
/** The CPU ms of `processName` per request sent to `url`, median of the rounds, after a warm-up. */
async function cpuPerRequest(url: string, processName: string): Promise<number[]> {
  await waitFor(url);
  await load(url, Math.min(requests, 5_000)); // warm-up: the JIT, the upstream pool
  const perRequest: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const before = cpuTimes(['nginx']);
    const sent = await load(url, requests);
    const after = cpuTimes(['nginx']);
    perRequest.push((((after?.[processName] ?? 0) - (before?.[processName] ?? 0)) * 1000) / sent);
  }
  return perRequest;
}

function printRow(name: string, perRequest: number[]): void {
  const median = [...perRequest].sort((a, b) => a - b)[Math.floor(perRequest.length / 2)]!;
  console.log(`| ${name} | ${median.toFixed(1)} | ${perRequest.map((value) => value.toFixed(1)).join(', ')} |`);
}

try {
  for (const variant of VARIANTS) {
    const port = await freePort();
    const env = config.childEnvironments({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DOTENV_PATH: '/dev/null',
      PORT: String(port),
      HOST: '127.0.0.1',
      [config.servicePortVariable('identity')]: String(upstreamPort),
      FORWARDING_SECRET: randomBytes(32).toString('hex'),
    }).gateway;
    const gateway = startProcess('gateway', `${root}services/gateway/dist/main.js`, { ...env, ...variant.env, METRICS_PORT: '0' }, { logFile: join(logs, 'gateway.log') });
    printRow(`gateway, ${variant.name}`, await cpuPerRequest(`http://127.0.0.1:${port}${PATH}`, 'gateway'));
    await stopProcess(gateway);
  }
  const bareProxyPort = await freePort();
  const bareProxy = startProcess('bare proxy', `${root}bench/dist/ceilings/bare-proxy.js`, { PORT: String(bareProxyPort), UPSTREAM: `http://127.0.0.1:${upstreamPort}` });
  printRow('bare Fastify + @fastify/http-proxy', await cpuPerRequest(`http://127.0.0.1:${bareProxyPort}${PATH}`, 'bare proxy'));
  await stopProcess(bareProxy);
  const nginxPort = await freePort();
  const nginx = startNginx(nginxPort, `127.0.0.1:${upstreamPort}`);
  try {
    printRow('nginx (packaged defaults, access log on)', await cpuPerRequest(`http://127.0.0.1:${nginxPort}${PATH}`, 'nginx'));
  } finally {
    await nginx.stop();
  }
} finally {
  await stopAll();
  upstream.close();
  rmSync(logs, { recursive: true, force: true });
}
console.log(
  `load average after: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
