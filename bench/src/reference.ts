// `npm run bench:reference` (after `npm run build`): one bounded run on this machine against a fresh
// database dropped at the end. Needs Postgres, Redis and RabbitMQ (DATABASE_URL, REDIS_URL, AMQP_URL).
//
// Starts the system through @school/system-harness (its own database, Redis database, broker names
// and folders, free ports), in production mode, signs
// the bootstrap admin in, uploads a small file, and measures authenticated reads through the gateway:
//   GET /api/academic-sessions (20 rows, served from the Redis list cache),
//   GET /api/lookups/provinces (when reference-data serves it),
//   GET /api/auth/me (identity) and
//   GET /api/upload/signed-url/<the file's key> (media),
// each against a bare Fastify server that verifies the same JWT with jose (the same JWKS, issuer and
// audience) and answers a body of the same size: the ceiling of an authenticated read on this
// machine. For `me`, whose answer is the caller's row, the ceiling also runs identity's query (the
// user and its password hash, by the token's subject) with `pg` before answering. Rounds alternate
// (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 8, at BENCH_CONNECTIONS, default 50); the
// ratio of the means is reported against the target (>= 0.6, issue 24).
// Then each runs at a fixed rate of half the ceiling's throughput (autocannon `overallRate`,
// bench/src/ceilings/fixed-rate.ts, lesson 10) and the ratio of their p99 latencies is reported.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import type { RunningSystem } from '@school/system-harness';
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pg from 'pg';
import { atFixedRate, reportLatency } from './ceilings/fixed-rate.js';
import { cpuPerRequest, cpuTimes, reportResult, startProductionSystem, stopAll } from './support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.6;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Production refuses the development admin password; the bootstrap admin gets one of this run. */
const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
let system: RunningSystem | undefined;
let pool: pg.Pool | undefined;

/** The system (production mode) and the JWKS URL its gateway verifies tokens against. */
async function startSystem(): Promise<{ system: RunningSystem; gateway: string; jwksUrl: string }> {
  const system = await startProductionSystem('bench-reference', {
    BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  return { system, gateway: system.gatewayUrl, jwksUrl: system.environment('gateway')['JWKS_URL'] ?? `${system.serviceUrl('identity')}/.well-known/jwks.json` };
}

async function json(response: Response): Promise<any> {
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** What the ceiling reads before answering a route, by the token's subject: `me` reads the caller's row as identity does (AccountsRepository.findCallerAccount). */
type CeilingRead = (subject: string) => Promise<unknown>;

function callerRowRead(pool: pg.Pool): CeilingRead {
  return (subject) =>
    pool.query(
      `SELECT u.id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role, u.banned,
              u.email_verified_at, u.phone_verified_at, u.created_at, u.address_province_id, u.address_district_id,
              u.address_municipality_id, u.address_ward, u.address_street, pa.password_hash
         FROM identity.users u
         LEFT JOIN identity.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
        WHERE u.public_id = $1::uuid AND u.deleted_at IS NULL`,
      [subject],
    );
}

/** The ceiling: jose verification of the same token, the route's read if it has one, then the same number of bytes. */
async function bareServer(jwksUrl: string, bodies: Record<string, Buffer>, reads: Record<string, CeilingRead>): Promise<{ app: FastifyInstance; url: string }> {
  const jwks = createRemoteJWKSet(new URL(jwksUrl));
  const app = Fastify({ logger: false });
  for (const [path, body] of Object.entries(bodies)) {
    const read = reads[path];
    app.get(path, async (request, reply) => {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      let subject: string;
      try {
        subject = (await jwtVerify(token ?? '', jwks, { issuer: 'school-commerce-identity', audience: 'school-commerce' })).payload.sub ?? '';
      } catch {
        return reply.code(401).send({ message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
      }
      if (read) await read(subject);
      return reply.header('content-type', 'application/json; charset=utf-8').send(body);
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

function load(url: string, headers: Record<string, string>, options: AutocannonOptions = {}): Promise<AutocannonResult> {
  return autocannon({ url, headers, connections, duration: seconds, ...options });
}

try {
  const started = await startSystem();
  system = started.system;
  const { gateway, jwksUrl } = started;
  const login = await json(
    await fetch(`${gateway}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: adminPassword }),
    }),
  );
  const headers = { authorization: `Bearer ${login.data.accessToken}` };
  for (let year = 2001; year <= 2020; year += 1) {
    await json(
      await fetch(`${gateway}/api/academic-sessions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Session ${year}`, startDate: `${year}-04-01`, endDate: `${year + 1}-03-31` }),
      }),
    );
  }
  const upload = new FormData();
  upload.append('file', new Blob([Buffer.from('%PDF-1.4\n% a bench file\n')], { type: 'application/pdf' }), 'bench.pdf');
  const { data: stored } = await json(await fetch(`${gateway}/api/upload?uploadType=file`, { method: 'POST', headers, body: upload }));
  const signedUrl = `/api/upload/signed-url/${stored.relativePath as string}`;
  const routes = ['/api/academic-sessions', '/api/lookups/provinces', '/api/auth/me', signedUrl];
  const names: Record<string, string> = {
    '/api/academic-sessions': 'academic sessions list',
    '/api/lookups/provinces': 'provinces list',
    '/api/auth/me': 'me',
    [signedUrl]: 'signed URL',
  };
  /** The route as the output names it: the uploaded file's key differs from run to run. */
  const shown = (path: string) => (path === signedUrl ? '/api/upload/signed-url/<key of a private file>' : path);
  const bodies: Record<string, Buffer> = {};
  for (const path of routes) {
    const response = await fetch(`${gateway}${path}`, { headers });
    if (response.ok) bodies[path] = Buffer.from(await response.arrayBuffer());
    else console.log(`${path}: answers ${response.status} here; not measured`);
  }
  pool = new pg.Pool({ connectionString: system.environment('identity')['DATABASE_URL'], max: 10 });
  const bare = await bareServer(jwksUrl, bodies, { '/api/auth/me': callerRowRead(pool) });

  console.log(
    `bench/reference: ${rounds} alternating rounds of ${seconds} s at ${connections} connections per route; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );
  for (const path of Object.keys(bodies)) {
    const through: number[] = [];
    const ceiling: number[] = [];
    await load(`${gateway}${path}`, headers, { duration: 2 }); // warm-up
    for (let round = 0; round < rounds; round += 1) {
      const before = cpuTimes();
      const viaGateway = await load(`${gateway}${path}`, headers);
      console.log(
        `  ${shown(path)} round ${round + 1}: ${viaGateway.requests.average.toFixed(0)} req/s through the gateway; ${cpuPerRequest(before, cpuTimes(), viaGateway.requests.total)}`,
      );
      const viaBare = await load(`${bare.url}${path}`, headers);
      if (viaGateway.non2xx > 0 || viaBare.non2xx > 0) throw new Error(`${path}: non-2xx answers (${viaGateway.non2xx} / ${viaBare.non2xx})`);
      through.push(viaGateway.requests.average);
      ceiling.push(viaBare.requests.average);
    }
    const ratio = mean(through) / mean(ceiling);
    const rate = mean(ceiling) / 2;
    const fixed = (url: string) => atFixedRate({ url, headers, connections, duration: seconds }, rate);
    const gatewayLatency = await fixed(`${gateway}${path}`);
    const bareLatency = await fixed(`${bare.url}${path}`);
    console.log(`${shown(path)} (${bodies[path]?.length} bytes)`);
    console.log(`  through the gateway: ${mean(through).toFixed(0)} req/s (rounds ${through.map((value) => value.toFixed(0)).join(', ')})`);
    console.log(`  bare jose + Fastify: ${mean(ceiling).toFixed(0)} req/s (rounds ${ceiling.map((value) => value.toFixed(0)).join(', ')})`);
    console.log(`  ratio ${ratio.toFixed(2)} (target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'})`);
    reportResult({
      figure: `authenticated GET ${shown(path)} through the gateway vs a bare jose + Fastify server${path === '/api/auth/me' ? " reading the caller's row with pg" : ''}`,
      product: mean(through),
      ceiling: mean(ceiling),
      unit: 'req/s',
      target: { op: '>=', value: TARGET },
      note: `${rounds} alternating rounds of ${seconds} s, ${connections} connections, load average ${(loadavg()[0] ?? 0).toFixed(2)}`,
    });
    console.log(
      `  at ${rate.toFixed(0)} req/s (half the ceiling's): p99 ${gatewayLatency.p99} ms through the gateway (p50 ${gatewayLatency.p50}), ${bareLatency.p99} ms bare (p50 ${bareLatency.p50})\n`,
    );
    reportLatency({
      route: names[path] ?? path,
      rate,
      product: gatewayLatency,
      ceiling: bareLatency,
      ceilingName: 'the bare jose + Fastify server',
      note: `${connections} connections`,
    });
  }
  await bare.app.close();
} finally {
  await pool?.end();
  await stopAll();
  await system?.shutdown();
}
