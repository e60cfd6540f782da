// `npm run bench:abuse` (after `npm run build`): contract §9 under attack, against the same system idle.
// The gateway and media run as in production; tokens come from a stand-in issuer (a JWKS on a local
// port), so hundreds of distinct users cost nothing. Measured, in one run:
// 1. idle: p99 latency of admin signed-URL requests and of small uploads (each from a user of its own);
// 2. the same while ABUSE_TRICKLES (default 100) uploads trickle one byte every 3 s (from 34 users over
//    11 loopback addresses, within the per-user and per-ip limits of uploads in flight) and 4
//    decompression bombs (7200 x 7200 PNGs) are uploaded over and over;
// Targets: each p99 under attack within 3x of idle; media's peak RSS < 512 MB.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTestIssuer, freePort, openUpload } from '@school/testing';
import { freshDatabase, reportResult, startProcess, stopAll, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const mains = { media: `${root}services/media/dist/main.js`, gateway: `${root}services/gateway/dist/main.js` };
const TRICKLES = Number(process.env.ABUSE_TRICKLES ?? 100);
const BOMBS = 4;
const SAMPLES = Number(process.env.ABUSE_SAMPLES ?? 40);
const PIXEL = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
}

function peakRssMb(pid: number): number | undefined {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : undefined;
}

function makePixelBomb(path: string): Buffer {
  const script = `
    import sharp from 'sharp';
    await sharp({ create: { width: 7200, height: 7200, channels: 3, background: 'black' } }).toColourspace('b-w').png({ compressionLevel: 9 }).toFile(${JSON.stringify(path)});
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: `${root}services/media`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making the pixel bomb failed: ${result.stderr}`);
  return readFileSync(path);
}

const issuer = await createTestIssuer();
const adminToken = () => issuer.sign({ sub: randomUUID(), sid: randomUUID(), role: 'admin' });

async function upload(gatewayUrl: string, token: string, bytes: Buffer, name: string): Promise<{ status: number; body: any }> {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type: 'image/png' }), name);
  const response = await fetch(`${gatewayUrl}/api/upload?optimize=false`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

/** Latencies (ms) of SAMPLES signed-URL requests and SAMPLES small uploads, one after the other. */
async function sample(gatewayUrl: string, owner: string, key: string): Promise<{ signed: number; upload: number }> {
  const signed: number[] = [];
  const uploads: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    const token = await adminToken();
    let started = performance.now();
    const url = await fetch(`${gatewayUrl}/api/upload/signed-url/${key}`, { headers: { authorization: `Bearer ${owner}` } });
    await url.arrayBuffer();
    if (url.status !== 200) throw new Error(`signed URL answered ${url.status}`);
    signed.push(performance.now() - started);
    started = performance.now();
    const stored = await upload(gatewayUrl, token, PIXEL, 'small.png');
    if (stored.status !== 200) throw new Error(`small upload answered ${stored.status} ${JSON.stringify(stored.body)}`);
    uploads.push(performance.now() - started);
  }
  return { signed: p99(signed), upload: p99(uploads) };
}

const database = await freshDatabase('bench_abuse');
const workDir = await mkdtemp(join(tmpdir(), 'bench-abuse-'));
const trickles: Awaited<ReturnType<typeof openUpload>>[] = [];
try {
  const [mediaPort, gatewayPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const mediaUrl = `http://127.0.0.1:${mediaPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const shared = { DATABASE_URL: database.url, JWKS_URL: issuer.jwksUrl, MEDIA_URL: mediaUrl, PUBLIC_BASE_URL: gatewayUrl };
  const media = startProcess('media', mains.media, { ...shared, PORT: String(mediaPort), HOST: '127.0.0.1', STORAGE_DIR: join(workDir, 'storage') });
  await waitFor(`${mediaUrl}/health/ready`);
  startProcess('gateway', mains.gateway, { ...shared, PORT: String(gatewayPort), METRICS_PORT: String(metricsPort), HOST: '127.0.0.1' });
  await waitFor(`${gatewayUrl}/health/live`);

  const owner = await adminToken();
  const first = await upload(gatewayUrl, owner, PIXEL, 'owned.png');
  if (first.status !== 200) throw new Error(`first upload answered ${first.status} ${JSON.stringify(first.body)}`);
  const key = first.body.data.relativePath;
  await sample(gatewayUrl, owner, key); // warm-up
  const idle = await sample(gatewayUrl, owner, key);
  console.log(`bench/abuse: idle p99 signed URL ${idle.signed.toFixed(1)} ms, small upload ${idle.upload.toFixed(1)} ms (${SAMPLES} each)`);

  // The attack: trickles within the limits of uploads in flight (3 a user, 10 an ip), and bombs.
  const users = Array.from({ length: Math.ceil(TRICKLES / 3) }, () => adminToken());
  for (let index = 0; index < TRICKLES; index += 1) {
    const token = await users[Math.floor(index / 3)]!;
    const localAddress = `127.0.0.${20 + Math.floor(index / 10)}`;
    trickles.push(await openUpload(gatewayUrl, '/api/upload', { token, localAddress, declaredBytes: 4 * 1024 * 1024 }));
  }
  const dripping = setInterval(() => trickles.forEach((open) => open.drip()), 3_000);
  const bomb = makePixelBomb(join(workDir, 'bomb.png'));
  let attacking = true;
  const bombAnswers = new Map<string, number>();
  const bombers = Array.from({ length: BOMBS }, async (_, lane) => {
    const token = await adminToken();
    while (attacking) {
      const body = new FormData();
      body.append('file', new Blob([bomb], { type: 'image/png' }), `bomb-${lane}.png`);
      const response = await fetch(`${gatewayUrl}/api/upload`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
      const answer = `${response.status} ${((await response.json()) as { errorCode: string }).errorCode}`;
      bombAnswers.set(answer, (bombAnswers.get(answer) ?? 0) + 1);
    }
  });
  await sleep(1_000);
  const attacked = await sample(gatewayUrl, owner, key);
  const ready = await fetch(`${mediaUrl}/health/ready`);
  attacking = false;
  clearInterval(dripping);
  await Promise.all(bombers);
  const peak = media.pid === undefined ? undefined : peakRssMb(media.pid);

  console.log(
    `bench/abuse: under attack (${TRICKLES} trickles, ${BOMBS} bomb lanes) p99 signed URL ${attacked.signed.toFixed(1)} ms, small upload ${attacked.upload.toFixed(1)} ms; media /health/ready ${ready.status}`,
  );
  console.log(`  bombs answered: ${[...bombAnswers].map(([answer, count]) => `${count} x ${answer}`).join(', ')}; media peak RSS ${peak?.toFixed(0)} MB`);
  const note = `idle p99 vs p99 with ${TRICKLES} trickling uploads and ${BOMBS} bomb lanes in flight`;
  reportResult({ figure: 'signed-URL p99 under upload abuse', product: attacked.signed, ceiling: idle.signed, unit: 'ms', target: { op: '<=', value: 3 }, note });
  reportResult({ figure: 'small-upload p99 under upload abuse', product: attacked.upload, ceiling: idle.upload, unit: 'ms', target: { op: '<=', value: 3 }, note });
  if (peak !== undefined) reportResult({ figure: 'media peak RSS under upload abuse', product: peak, unit: 'MB', target: { op: '<', value: 512 } });
} finally {
  for (const open of trickles) open.reset();
  await stopAll();
  await issuer.close();
  await database.drop();
}
