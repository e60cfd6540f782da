import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { parse } from 'yaml';
import { scaled } from '@school/testing';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { readRepoFile } from './support/deployment.js';
import { BOOTSTRAP_ADMIN, clientAddress, invitedPerson, type SignedIn, signIn } from './support/people.js';

/**
 * Issue 31, item 2: media's memory while it converts two maximal images at once (just under
 * contract §9's 40 megapixels), read as its own peak resident set (VmHWM) and its children's:
 * libvips and libwebp work inside media's process. A maximal JPEG and PNG stay under 300 MiB; two
 * maximal transparent PNGs, the worst case, keep a fifth of the chart's memory limit spare
 * (docs/operations/scaling.md).
 */

const OPAQUE_PEAK_MIB = 300;
const WIDTH = 7999;
const HEIGHT = 4999;

let system: RunningSystem;
/** Two accounts of the admin surface: one account converts one image at a time (fair turns), so each upload is another's. */
let uploaders: SignedIn[];

/** The chart's memory limit of media, in MiB. */
function chartLimitMib(): number {
  const values = parse(readRepoFile('deploy/helm/school-commerce/values.yaml')) as { resources: { media: { limits: { memory: string } } } };
  const limit = /^(\d+)Mi$/.exec(values.resources.media.limits.memory);
  if (!limit) throw new Error(`media's memory limit is not in Mi: ${values.resources.media.limits.memory}`);
  return Number(limit[1]);
}

/**
 * A maximal image with detail everywhere (a 400 x 250 noise pattern blown up in 20-pixel blocks:
 * edges for the encoder, noise in the alpha channel too, yet a file well under the 50 MiB upload limit).
 */
async function maximal(format: 'jpeg' | 'png', alpha: boolean): Promise<Buffer> {
  const noise = { type: 'gaussian', mean: 128, sigma: 70 } as const;
  const pattern = await sharp({ create: { width: 400, height: 250, channels: alpha ? 4 : 3, background: { r: 0, g: 0, b: 0, alpha: 0.5 }, noise } })
    .png()
    .toBuffer();
  return sharp(pattern).resize(WIDTH, HEIGHT, { kernel: 'nearest' }).toFormat(format).toBuffer();
}

async function upload(uploader: SignedIn, bytes: Buffer, name: string, type: string): Promise<{ status: number; mimeType?: string | undefined; errorCode?: string | null }> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${system.gatewayUrl}/api/upload`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${uploader.accessToken}`, 'x-forwarded-for': clientAddress() },
  });
  const answer = (await response.json()) as { data: { mimeType: string } | null; errorCode: string | null };
  return { status: response.status, ...(response.status === 200 ? { mimeType: answer.data?.mimeType } : { errorCode: answer.errorCode }) };
}

/** The peak resident set of a process plus its children's, in MiB (Linux' VmHWM). */
function peakMib(pid: number): number {
  const own = Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return own + children.reduce((sum, child) => sum + peakMib(child), 0);
}

/** Both uploaded at once to a fresh media (so that its peak is theirs): media's peak afterwards. */
async function peakConverting(first: [Buffer, string, string], second: [Buffer, string, string]): Promise<number> {
  await system.stop('media');
  await system.restart('media');
  await system.ready();
  const pid = system.pids().media;
  if (!pid) throw new Error('media is not running');
  const answers = await Promise.all([upload(uploaders[0]!, ...first), upload(uploaders[1]!, ...second)]);
  expect(answers).toEqual([
    { status: 200, mimeType: 'image/webp' },
    { status: 200, mimeType: 'image/webp' },
  ]);
  return peakMib(pid);
}

beforeAll(async () => {
  // What is measured is memory: on a loaded machine two maximal conversions may take longer than the gateway's 30 s.
  // By default the second maximal image waits for the first (the pixel budget), which a loaded
  // machine may stretch past the 10 s wait: that 503 is the contract's, but not what is measured here.
  system = await startSystem({
    label: 'media-memory',
    services: ['identity', 'notifier', 'media'],
    // Without the harness's code cache, which adds to a process's resident memory: measured as deployed.
    env: { TRUST_PROXY: '1', UPSTREAM_TIMEOUT_MS: String(scaled(180_000)), IMAGE_CONVERSION_WAIT_MS: String(scaled(120_000)), NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  const admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
  uploaders = [admin, await invitedPerson(system, admin.accessToken, 'staff', 'Sec0nd-Upl0ader!maximal')];
});

afterAll(async () => {
  await system?.shutdown();
});

describe('media memory with two maximal conversions at once', () => {
  it(
    'converts a maximal JPEG and a maximal PNG under 300 MiB',
    async () => {
      const [jpeg, png] = await Promise.all([maximal('jpeg', false), maximal('png', false)]);
      expect(await peakConverting([jpeg, 'photo.jpg', 'image/jpeg'], [png, 'drawing.png', 'image/png'])).toBeLessThan(OPAQUE_PEAK_MIB);
    },
    scaled(240_000),
  );

  it(
    "converts two maximal transparent PNGs within four fifths of the chart's memory limit",
    async () => {
      const [one, two] = await Promise.all([maximal('png', true), maximal('png', true)]);
      expect(await peakConverting([one, 'cut-out.png', 'image/png'], [two, 'overlay.png', 'image/png'])).toBeLessThan(0.8 * chartLimitMib());
    },
    scaled(240_000),
  );
});
