// `npm run bench:memory` (after `npm run build`): the resident memory of every process of the
// system, started as production runs it (libs/config runtimeEnv: NODE_OPTIONS, media's malloc
// arenas; no source maps), on a fresh database removed at the end. Needs Postgres, Redis, RabbitMQ.
//
// 1. idle: each process's RSS (Linux VmRSS) BENCH_IDLE_SECONDS (default 10) after the system is
//    ready (target <= 120 MB each, issue 36);
// 2. peak: each process's peak RSS (VmHWM) after BENCH_SECONDS (default 20) of mixed load from
//    BENCH_CLIENTS (default 8) closed-loop clients: sign-ins, `me`, the provinces and academic
//    sessions lists, guest feedback (mailed by the notifier) and image uploads converted to WebP,
//    each from a client address of its own (TRUST_PROXY=1); media's target is uploads.js' (< 300 MB).
// The note of each idle row gives the RSS once the load has stopped and the process idled again.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32, deflateSync } from 'node:zlib';
import { PROCESS_NAMES, type ProcessName } from '@school/config';
import { reportResult, residentMb, startProductionSystem, stopAll } from './support.js';

const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const IDLE_TARGET_MB = 120;
const MEDIA_PEAK_TARGET_MB = 300;

const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
const admin = { email: 'admin@example.com', password: adminPassword };
let devices = 0;
/** A sign-in from a device of its own, as a new client's: its new-device alert mail is part of the load. */
const adminSignIn = () => ({ ...admin, deviceInfo: { deviceId: `bench-memory-${devices++}`, deviceType: 'script', deviceName: 'bench' } });
const addressBase = randomBytes(2).readUInt16BE(0);
let addresses = 0;
/** A client address no other request of this run uses: the per-ip throttles count each once. */
const nextAddress = (): string => {
  const value = addressBase * 256 + (addresses++ % 0xffff);
  return `10.${(value >> 16) & 0xff}.${(value >> 8) & 0xff}.${value & 0xff}`;
};

const system = await startProductionSystem('bench-memory', {
  TRUST_PROXY: '1',
  BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
  JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});

/** RSS of every running process of the system, by name. */
function readings(field: 'VmRSS' | 'VmHWM'): Map<ProcessName, number> {
  const pids = system.pids();
  return new Map(PROCESS_NAMES.flatMap((name): [ProcessName, number][] => (pids[name] === undefined ? [] : [[name, residentMb(pids[name], field) ?? NaN]])));
}

async function send(method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { 'x-forwarded-for': nextAddress() };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  const response = await fetch(`${system.gatewayUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

async function signIn(): Promise<string> {
  const answer = await send('POST', '/api/auth/login/email', { body: adminSignIn() });
  if (answer.status !== 200) throw new Error(`login: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.data.accessToken as string;
}

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A 1000 x 750 RGB PNG of noise (detail everywhere, as in a photo): media converts it to WebP. */
function noisePng(width = 1000, height = 750): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
const png = noisePng();
const uploadForm = (): FormData => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'bench.png');
  return form;
};

try {
  await system.ready();
  await sleep(idleSeconds * 1000);
  const idle = readings('VmRSS');
  console.log(`bench/memory: idle RSS ${idleSeconds} s after ready: ${[...idle].map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`);

  // The newest session's token: sign-ins beyond the account's 50 live sessions end the least recently used (contract §10).
  let token = await signIn();
  /** Each operation with the statuses it promises (429: the upload throttle's 60 a minute per user, contract §9). */
  const operations: [weight: number, run: () => Promise<{ status: number }>, promised: number[]][] = [
    [3, () => send('GET', '/api/auth/me', { token }), [200]],
    [3, () => send('GET', '/api/lookups/provinces', { token }), [200]],
    [3, () => send('GET', '/api/academic-sessions', { token }), [200]],
    [1, async () => ((token = await signIn()), { status: 200 }), [200]],
    [
      2,
      () =>
        send('POST', '/api/mobile/feedback/public', {
          body: { name: 'Bench Guest', email: 'bench.guest@example.org', category: 'general_feedback', subject: 'bench memory', message: 'Sent by bench/memory.' },
        }),
      [200],
    ],
    [1, () => send('POST', '/api/upload?uploadType=image', { token, body: uploadForm() }), [200, 429]],
  ];
  const deck = operations.flatMap((operation) => Array.from({ length: operation[0] }, () => operation));
  const statuses = new Map<string, number>();
  let unexpected = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let turn = client; Date.now() < until; turn += clients) {
        const [, run, promised] = deck[turn % deck.length]!;
        const { status } = await run();
        statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
        if (!promised.includes(status)) unexpected += 1;
      }
    }),
  );
  const peak = readings('VmHWM');
  const load = loadavg()[0]?.toFixed(2);
  console.log(`bench/memory: ${seconds} s of mixed load, ${clients} clients, statuses ${JSON.stringify(Object.fromEntries(statuses))}; load average ${load}`);
  if (unexpected > 0) throw new Error(`${unexpected} answers no route promises`);
  await sleep(idleSeconds * 1000);
  const after = readings('VmRSS');

  for (const [name, mb] of idle) {
    reportResult({
      figure: `idle RSS: ${name}`,
      product: mb,
      unit: 'MB',
      target: { op: '<=', value: IDLE_TARGET_MB },
      note: `${idleSeconds} s after ready; ${(after.get(name) ?? NaN).toFixed(0)} MB ${idleSeconds} s after the mixed load`,
    });
  }
  for (const [name, mb] of peak) {
    reportResult({
      figure: `peak RSS under mixed load: ${name}`,
      product: mb,
      unit: 'MB',
      ...(name === 'media' && { target: { op: '<', value: MEDIA_PEAK_TARGET_MB } }),
      note: `VmHWM after ${seconds} s, ${clients} clients (reads, sign-ins, guest feedback, 1000x750 PNG uploads to WebP); load average ${load}`,
    });
  }
} finally {
  await stopAll();
  await system.shutdown();
}
