// `npm run bench:uploads` (after `npm run build`): one bounded run on this machine, against a fresh
// database and storage folder removed at the end. Needs Postgres and Redis (DATABASE_URL, REDIS_URL).
//
// 1. raw WebP conversions/s of one 2000x1500 PNG (noise: the worst case for a codec), in a process
//    of its own, with media's own conversion (services/media/dist/uploads/image-optimizer.js:
//    file in, file out, as an upload does), `cores` conversions in flight;
// 2. POST /api/upload of the same PNG through the gateway (optimize on: stored as WebP), `cores`
//    uploads in flight; 1 and 2 alternate for BENCH_ROUNDS (default 2) rounds of BENCH_SECONDS
//    (default 8) each; ratio of their means (target >= 0.7: an upload costs little beyond its conversion);
// 3. peak resident memory (Linux VmHWM) of media over the rounds of 2 (target < 300 MB), then of media (a fresh process) and of the gateway after 3 clients
//    (one user's limit of uploads in flight, contract §9) upload a 50 MiB file each at once (target < 300 MB each: uploads stream, nothing holds a file whole).
// 3b. peak resident memory of a fresh media converting two maximal images at once (just under
//    contract §9's 40 megapixels, 7999 x 4999): a JPEG and a PNG (target < 300 MB), two transparent
//    PNGs (the worst case; target < 512 MB, four fifths of the chart's 640Mi limit), two animated GIFs
//    of 99 frames of 1000 x 1000 (99 megapixels over all frames; target < 300 MB).
// 4. abuse: peak resident memory of a fresh media while 3 decompression bombs (one user's limit of
//    uploads in flight; 7200 x 7200 PNGs of a few KiB, 51.8 megapixels each) are uploaded at once
//    (target < 512 MB: contract §9 refuses them from their header, before any pixel is decoded).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processDefaults } from '@school/system-harness/processes';
import { freePort } from '@school/testing';
import { freshDatabase, reportResult, residentMb, startProcess, stopAll, stopProcess, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const mains = { identity: `${root}services/identity/dist/main.js`, media: `${root}services/media/dist/main.js`, gateway: `${root}services/gateway/dist/main.js` };
const optimizer = `${root}services/media/dist/uploads/image-optimizer.js`;
const userCreateCli = `${root}services/identity/dist/cli/user-create.js`;
const cores = availableParallelism();
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const MIB = 1024 * 1024;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

for (const path of [...Object.values(mains), optimizer]) {
  if (!existsSync(path)) {
    console.error(`bench/uploads: ${path} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}

/** The bench PNG, made by media's own sharp. */
function makePng(path: string): void {
  const script = `
    import sharp from 'sharp';
    await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 90, g: 140, b: 200 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
      .png().toFile(${JSON.stringify(path)});
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: `${root}services/media`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making the PNG failed: ${result.stderr}`);
}

/**
 * Maximal images, made by media's own sharp: noise blown up in 20-pixel blocks (detail everywhere,
 * under the 50 MiB upload limit), and an animation whose 99 frames each move a square over noise.
 */
function makeMaximalImages(dir: string): Record<'jpeg' | 'png' | 'transparent' | 'animation', string> {
  const paths = { jpeg: join(dir, 'max.jpg'), png: join(dir, 'max.png'), transparent: join(dir, 'max-alpha.png'), animation: join(dir, 'max.gif') };
  const script = `
    import sharp from 'sharp';
    const noise = { type: 'gaussian', mean: 128, sigma: 70 };
    const blown = async (channels) => sharp(await sharp({ create: { width: 400, height: 250, channels, background: { r: 0, g: 0, b: 0, alpha: 0.5 }, noise } }).png().toBuffer())
      .resize(7999, 4999, { kernel: 'nearest' });
    await (await blown(3)).jpeg().toFile(${JSON.stringify(paths.jpeg)});
    await (await blown(3)).png().toFile(${JSON.stringify(paths.png)});
    await (await blown(4)).png().toFile(${JSON.stringify(paths.transparent)});
    const ground = await sharp({ create: { width: 100, height: 100, channels: 3, background: 'black', noise } }).resize(1000, 1000).png().toBuffer();
    const frames = await Promise.all(Array.from({ length: 99 }, (_, index) => sharp(ground)
      .composite([{ input: Buffer.from('<svg width="200" height="200"><rect width="200" height="200" fill="rgb(' + index * 2 + ',50,200)"/></svg>'), left: index * 8, top: index * 5 }])
      .png().toBuffer()));
    await sharp(frames, { join: { animated: true } }).gif({ effort: 1 }).toFile(${JSON.stringify(paths.animation)});
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: `${root}services/media`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making the maximal images failed: ${result.stderr}`);
  return paths;
}

/** A 7200 x 7200 black PNG: a few KiB on the wire, 51.8 megapixels once decoded. */
function makePixelBomb(path: string): void {
  const script = `
    import sharp from 'sharp';
    await sharp({ create: { width: 7200, height: 7200, channels: 3, background: 'black' } })
      .toColourspace('b-w').png({ compressionLevel: 9 }).toFile(${JSON.stringify(path)});
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: `${root}services/media`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making the pixel bomb failed: ${result.stderr}`);
}

/** Conversions/s of `input` with media's toWebp, `cores` at once, in a child process. */
function rawConversionRate(input: string, workDir: string): number {
  const script = `
    import { toWebp } from ${JSON.stringify(optimizer)};
    const until = Date.now() + ${seconds * 1000};
    let count = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: ${cores} }, async (_, lane) => {
      while (Date.now() < until) { await toWebp(${JSON.stringify(input)}, ${JSON.stringify(workDir)} + '/raw-' + lane + '.webp'); count += 1; }
    }));
    process.stdout.write(String(count / ((performance.now() - started) / 1000)));
  `;
  // Under media's runtime defaults (its malloc arenas), as the service converts.
  const env = { ...process.env, ...processDefaults('media', process.env) };
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: `${root}services/media`, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`raw conversion measurement failed: ${result.stderr}`);
  return Number(result.stdout);
}

async function upload(url: string, token: string, bytes: Buffer, filename: string, type: string): Promise<any> {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type }), filename);
  const response = await fetch(url, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
  const json = (await response.json()) as { data: any };
  if (response.status !== 200) throw new Error(`upload: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Uploads/s through the gateway, `cores` in flight. */
async function uploadRate(url: string, token: string, png: Buffer): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (Date.now() < until) {
        const stored = await upload(url, token, png, 'bench.png', 'image/png');
        if (stored.mimeType !== 'image/webp') throw new Error(`stored as ${stored.mimeType}`);
        count += 1;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const peakRssMb = (pid: number | undefined): number | undefined => residentMb(pid, 'VmHWM');

const database = await freshDatabase('bench_uploads');
const workDir = await mkdtemp(join(tmpdir(), 'bench-uploads-'));
try {
  const [identityPort, mediaPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const mediaUrl = `http://127.0.0.1:${mediaPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const jwksUrl = `${identityUrl}/.well-known/jwks.json`;
  const shared = { DATABASE_URL: database.url, JWKS_URL: jwksUrl, IDENTITY_URL: identityUrl, MEDIA_URL: mediaUrl, PUBLIC_BASE_URL: gatewayUrl };
  startProcess('identity', mains.identity, { ...shared, PORT: String(identityPort), HOST: '127.0.0.1' });
  await waitFor(`${identityUrl}/health/ready`);
  const mediaEnv = { ...shared, PORT: String(mediaPort), HOST: '127.0.0.1', STORAGE_DIR: join(workDir, 'storage'), UPLOAD_MAX_FILE_SIZE_MB: '50' };
  let media = startProcess('media', mains.media, mediaEnv);
  await waitFor(`${mediaUrl}/health/ready`);
  const gateway = startProcess('gateway', mains.gateway, { ...shared, PORT: String(gatewayPort), HOST: '127.0.0.1', UPLOAD_MAX_FILE_SIZE_MB: '50' });
  await waitFor(`${gatewayUrl}/health/live`);

  const signIn = async (email: string, password: string): Promise<string> => {
    const login = await fetch(`${gatewayUrl}/api/auth/login/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    if (login.status !== 200) throw new Error(`login of ${email}: ${login.status}`);
    return ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  };
  const token = await signIn(process.env.BOOTSTRAP_ADMIN_EMAIL ?? 'admin@example.com', process.env.BOOTSTRAP_ADMIN_PASSWORD ?? 'Admin123!');
  /** An admin of its own for each round: the upload throttle counts 60 a minute per user (contract §9). */
  const roundAdmin = async (round: number): Promise<string> => {
    const [email, password] = [`bench-round-${round}@example.com`, 'Bench-Round-Pass-1'];
    const created = spawnSync(process.execPath, [userCreateCli, '--email', email, '--role', 'admin', '--password', password], {
      env: { ...process.env, DATABASE_URL: database.url, DOTENV_PATH: '/dev/null' },
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`user:create ${email}: ${created.stderr}`);
    return signIn(email, password);
  };

  const pngPath = join(workDir, 'bench.png');
  makePng(pngPath);
  const png = readFileSync(pngPath);
  console.log(`bench/uploads: ${cores} cores, PNG 2000x1500 of ${(png.length / MIB).toFixed(1)} MiB, ${rounds} rounds of ${seconds} s`);

  const raw: number[] = [];
  const through: number[] = [];
  await upload(`${gatewayUrl}/api/upload`, token, png, 'warm.png', 'image/png');
  for (let round = 1; round <= rounds; round += 1) {
    raw.push(rawConversionRate(pngPath, workDir));
    through.push(await uploadRate(`${gatewayUrl}/api/upload`, await roundAdmin(round), png));
    console.log(`  round ${round}: raw sharp ${(raw.at(-1) ?? 0).toFixed(2)} conversions/s, through the gateway ${(through.at(-1) ?? 0).toFixed(2)} uploads/s`);
  }
  const ratio = mean(through) / mean(raw);
  console.log(
    `WebP uploads/s through the gateway ${mean(through).toFixed(2)} vs raw sharp ${mean(raw).toFixed(2)}/s: ratio ${ratio.toFixed(2)} (target >= 0.7) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`,
  );
  reportResult({ figure: 'WebP uploads through the gateway vs raw sharp', product: mean(through), ceiling: mean(raw), unit: '/s', target: { op: '>=', value: 0.7 } });
  const conversionPeak = peakRssMb(media.pid);
  if (conversionPeak !== undefined) {
    console.log(
      `media peak RSS over the WebP rounds (${cores} uploads in flight): ${conversionPeak.toFixed(0)} MB (target < 300 MB) ${conversionPeak < 300 ? 'OK' : 'ABOVE TARGET'}`,
    );
    reportResult({
      figure: `media peak RSS, WebP uploads of the ${(png.length / MIB).toFixed(1)} MiB PNG, ${cores} at once`,
      product: conversionPeak,
      unit: 'MB',
      target: { op: '<', value: 300 },
    });
  }

  const maximal = makeMaximalImages(workDir);
  const pairs = [
    {
      label: 'a maximal JPEG and PNG',
      files: [
        [maximal.jpeg, 'image/jpeg'],
        [maximal.png, 'image/png'],
      ],
      target: 300,
    },
    {
      label: 'two maximal transparent PNGs',
      files: [
        [maximal.transparent, 'image/png'],
        [maximal.transparent, 'image/png'],
      ],
      target: 512,
    },
    {
      label: 'two animations of 99 megapixels',
      files: [
        [maximal.animation, 'image/gif'],
        [maximal.animation, 'image/gif'],
      ],
      target: 300,
    },
  ] as const;
  for (const { label, files, target } of pairs) {
    // A fresh media process, so that its peak is the one of these two conversions.
    await stopProcess(media);
    media = startProcess('media', mains.media, mediaEnv);
    await waitFor(`${mediaUrl}/health/ready`);
    const started = performance.now();
    await Promise.all(
      files.map(async ([path, type], index) => {
        const stored = await upload(`${gatewayUrl}/api/upload`, token, readFileSync(path), `max-${index}.${type.split('/')[1]}`, type);
        if (stored.mimeType !== 'image/webp') throw new Error(`stored as ${stored.mimeType}`);
      }),
    );
    const peak = peakRssMb(media.pid);
    const elapsed = (performance.now() - started) / 1000;
    if (peak === undefined) continue;
    console.log(
      `media peak RSS, ${label} uploaded at once by one account, as media schedules them by default (${elapsed.toFixed(1)} s): ${peak.toFixed(0)} MB (target < ${target} MB) ${peak < target ? 'OK' : 'ABOVE TARGET'}`,
    );
    reportResult({ figure: `media peak RSS, ${label} uploaded at once by one account`, product: peak, unit: 'MB', target: { op: '<', value: target } });
  }

  // A fresh media process, so that its peak is the one of the 50 MiB uploads, not of the conversions above.
  await stopProcess(media);
  media = startProcess('media', mains.media, mediaEnv);
  await waitFor(`${mediaUrl}/health/ready`);
  const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(50 * MIB - 1024, 0x20)]);
  await writeFile(join(workDir, 'big.pdf'), big);
  await Promise.all(Array.from({ length: 3 }, (_, index) => upload(`${gatewayUrl}/api/upload?uploadType=file`, token, big, `big-${index}.pdf`, 'application/pdf')));
  for (const [name, child] of [
    ['media', media],
    ['gateway', gateway],
  ] as const) {
    const peak = peakRssMb(child.pid);
    console.log(
      peak === undefined
        ? `${name} peak RSS: not measurable here (no /proc)`
        : `${name} peak RSS while 3 clients uploaded 50 MiB at once: ${peak.toFixed(0)} MB (target < 300 MB) ${peak < 300 ? 'OK' : 'ABOVE TARGET'}`,
    );
    if (peak !== undefined) reportResult({ figure: `${name} peak RSS, 3 uploads of 50 MiB at once`, product: peak, unit: 'MB', target: { op: '<', value: 300 } });
  }

  // A fresh media again, so that its peak is the one of the bombs.
  await stopProcess(media);
  media = startProcess('media', mains.media, mediaEnv);
  await waitFor(`${mediaUrl}/health/ready`);
  const bombPath = join(workDir, 'bomb.png');
  makePixelBomb(bombPath);
  const bomb = readFileSync(bombPath);
  const answers = await Promise.all(
    Array.from({ length: 3 }, async (_, index) => {
      const body = new FormData();
      body.append('file', new Blob([bomb], { type: 'image/png' }), `bomb-${index}.png`);
      const response = await fetch(`${gatewayUrl}/api/upload`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
      return `${response.status} ${((await response.json()) as { errorCode: string }).errorCode}`;
    }),
  );
  const bombPeak = peakRssMb(media.pid);
  console.log(`media answered 3 pixel bombs of ${(bomb.length / 1024).toFixed(0)} KiB at once: ${answers.join(', ')}`);
  if (bombPeak !== undefined) {
    console.log(`media peak RSS with 3 decompression bombs in flight: ${bombPeak.toFixed(0)} MB (target < 512 MB) ${bombPeak < 512 ? 'OK' : 'ABOVE TARGET'}`);
    reportResult({ figure: 'media peak RSS, 3 decompression bombs at once', product: bombPeak, unit: 'MB', target: { op: '<', value: 512 } });
  }
} finally {
  await stopAll();
  await database.drop();
  await rm(workDir, { recursive: true, force: true });
}
