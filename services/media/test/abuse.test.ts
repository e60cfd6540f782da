import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gradientPng, type MigratedTestSchema, waitFor } from '@school/testing';
import sharp from 'sharp';
import { animatedGif, form, pixelBomb } from './support/files.js';
import { type Caller, type MediaUnderTest, mediaSchema, startMedia } from './support/media-app.js';
import { startS3, type TestS3 } from './support/s3-server.js';
import { localObjects, s3Objects, type StoredObjects } from './support/stored-objects.js';

interface Envelope {
  message: string;
  data: unknown;
  errorCode: string | null;
  errors?: Array<{ field: string; message: string }>;
}

const KIB = 1024;

async function send(media: MediaUnderTest, path: string, body: FormData | Buffer, token: string, headers: Record<string, string> = {}) {
  const response = await media.fetch(path, { method: 'POST', body: body instanceof Buffer ? new Uint8Array(body) : body, headers, token });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
}

/** A multipart body written byte for byte, so a file name reaches media exactly as given (fetch's FormData escapes some characters). */
function rawMultipart(field: string, filename: string, type: string, bytes: Buffer): { body: Buffer; headers: Record<string, string> } {
  const boundary = `raw${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`, 'utf8');
  const body = Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A GIF of 101 frames of 8 x 8 pixels whose header declares a 1000 x 1000 screen: every frame
 * decodes to a megapixel, 101 megapixels in all, from a file of a few KiB.
 */
async function animationBomb(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background } })
      .png()
      .toBuffer();
  const frames = await Promise.all(Array.from({ length: 101 }, (_, index) => frame(index % 2 ? 'red' : 'blue')));
  const gif = Buffer.from(
    await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer(),
  );
  gif.writeUInt16LE(1000, 6);
  gif.writeUInt16LE(1000, 8);
  return gif;
}

/** Media on one storage driver, what that driver holds, and an administrator. */
interface Target {
  media: MediaUnderTest;
  store: StoredObjects;
  admin: Caller;
}

/** Starts media on `driver` before the describe's tests (closed after them); the getter is valid inside tests. */
function mediaOn(driver: 'local' | 's3', env: Record<string, string> = {}): () => Target {
  let target: Target | undefined;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = driver === 's3' ? await startS3() : undefined;
    const media = await startMedia({ ...env, ...s3?.env });
    target = { media, store: s3 ? s3Objects(s3) : localObjects(media.storageDir), admin: await media.caller('admin') };
  });
  afterAll(async () => {
    await target?.media.close();
    await s3?.close();
  });
  return () => {
    if (!target) throw new Error('media is not started');
    return target;
  };
}

/** Sends an upload and drops the connection once media has read the whole body, before it answers. */
function uploadAndLeave({ media, admin }: Target, path: string, multipart: { body: Buffer; headers: Record<string, string> }): Promise<void> {
  const { body, headers } = multipart;
  const { hostname, port } = new URL(media.baseUrl);
  return new Promise((resolve, reject) => {
    const client = httpRequest({
      hostname,
      port,
      method: 'POST',
      path,
      headers: { ...headers, authorization: `Bearer ${admin.token}`, 'content-length': String(body.length) },
    });
    client.on('error', () => undefined);
    client.on('response', () => reject(new Error('media answered before the client left')));
    const onRequest = (request: IncomingMessage) => {
      request.once('end', () => {
        media.server.off('request', onRequest);
        client.destroy();
        resolve();
      });
    };
    media.server.on('request', onRequest);
    client.end(body);
  });
}

const UNDELIVERED = 'upload answer not delivered, stored files discarded: ';

/**
 * Contract §9 on each driver: an upload stored for a client that left before its 200 is deleted
 * with its record. A text file, as no conversion runs for it (a conversion stops for a client
 * gone, so an image would never be stored): media stores it, having seen the client leave
 * meanwhile, then discards it and logs the key.
 */
async function deletesWhatWasStoredForAClientThatLeft(target: Target): Promise<void> {
  const { media, store } = target;
  const rows = await media.prisma.upload.count();
  const before = await store.keys();
  const logged = media.logs.length;
  await uploadAndLeave(target, '/api/upload?uploadType=file', rawMultipart('file', 'notes.txt', 'text/plain', Buffer.from('notes\n')));
  const line = await waitFor(() => media.logs.slice(logged).find((entry) => entry.includes(UNDELIVERED)), { timeoutMs: 10_000, what: 'the discarding of the undelivered upload' });
  const key = (JSON.parse(line) as { msg: string }).msg.slice(UNDELIVERED.length);
  expect(key).toMatch(/^uploads\/file\/[0-9a-f-]{36}\/[0-9a-f]{32}\.txt$/);
  // The line is logged as the discarding starts: wait for the store to be as before, not for the line.
  await waitFor(async () => (await media.prisma.upload.count()) === rows && JSON.stringify(await store.keys()) === JSON.stringify(before), {
    timeoutMs: 10_000,
    what: `${key} and its record deleted`,
  });
}

describe('contract §9 media rules', () => {
  // The rules below do not depend on the storage driver: one media on local storage checks them.
  const local = mediaOn('local', { UPLOAD_MAX_FILE_SIZE_MB: '20', IMAGE_CONVERSIONS: '1', IMAGE_CONVERSION_WAIT_MS: '0', CUSTOMER_STORAGE_QUOTA_MB: '1' });

  describe('decompression bombs: decoded only up to 40 megapixels (animations 100 over all frames)', () => {
    it('refuses a still image over 40 megapixels with 400 UPLOAD_CONTENT_REJECTED, storing nothing', async () => {
      const { media, store, admin } = local();
      const rows = await media.prisma.upload.count();
      const before = await store.keys();
      for (const side of [6500, 7200]) {
        const bomb = pixelBomb(side);
        expect(await sharp(bomb).metadata()).toMatchObject({ width: side, height: side });
        const answer = await send(media, '/api/upload', form('file', bomb, 'bomb.png', 'image/png'), admin.token);
        expect({ side, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ side, status: 400, errorCode: 'UPLOAD_CONTENT_REJECTED' });
      }
      expect(await store.keys()).toEqual(before);
      expect(await media.prisma.upload.count()).toBe(rows);
    });

    it('refuses an animation over 100 megapixels over all its frames, and still converts a small one', async () => {
      const { media, admin } = local();
      const bomb = await animationBomb();
      expect(await sharp(bomb, { animated: true }).metadata()).toMatchObject({ width: 1000, pageHeight: 1000, pages: 101 });
      const refused = await send(media, '/api/upload', form('file', bomb, 'bomb.gif', 'image/gif'), admin.token);
      expect([refused.status, refused.body.errorCode]).toEqual([400, 'UPLOAD_CONTENT_REJECTED']);
      const small = await send(media, '/api/upload', form('file', await animatedGif(), 'blink.gif', 'image/gif'), admin.token);
      expect(small.status).toBe(200);
    });
  });

  it('runs at most IMAGE_CONVERSIONS conversions at once: an upload that waited longer than IMAGE_CONVERSION_WAIT_MS is 503 with Retry-After and stores nothing', async () => {
    const { media, store } = local();
    const objects = async () => (await store.keys()).filter((key) => !key.endsWith('.content-type'));
    const rows = await media.prisma.upload.count();
    const before = await objects();
    // Six accounts, as one account converts one image at a time whatever IMAGE_CONVERSIONS says.
    const callers = await Promise.all(Array.from({ length: 6 }, () => media.caller('admin')));
    // 4 megapixels: converted whole (no shrinking), long enough for the other uploads to arrive meanwhile.
    const png = gradientPng(2000, 2000);
    const answers = await Promise.all(callers.map((caller) => send(media, '/api/upload', form('file', png, 'big.png', 'image/png'), caller.token)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.body.errorCode).toBe('SERVICE_UNAVAILABLE');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const stored = answers.filter((answer) => answer.status === 200).map((answer) => String((answer.body.data as { relativePath: string }).relativePath));
    expect(stored.length).toBeGreaterThan(0);
    expect(await objects()).toEqual([...before, ...stored].sort());
    expect(await media.prisma.upload.count()).toBe(rows + stored.length);
  });

  describe('original file names: at most 255 UTF-8 bytes, no control character, no bidirectional control', () => {
    it.each([
      ['NUL', 'a\u0000b.txt'],
      ['256 UTF-8 bytes (130 characters)', `${'é'.repeat(126)}.txt`],
      ['a control character', 'a\u0007b.txt'],
      ['a right-to-left override', 'invoice\u202Etxt.exe.txt'],
      ['a right-to-left isolate', 'a\u2067b.txt'],
      ['a right-to-left mark', 'a\u200Fb.txt'],
    ])('refuses %s with 400 VALIDATION_FAILED on the file field, storing nothing', async (_label, name) => {
      const { media, store, admin } = local();
      const rows = await media.prisma.upload.count();
      const before = await store.keys();
      const { body, headers } = rawMultipart('file', name, 'text/plain', Buffer.from('notes\n'));
      const answer = await send(media, '/api/upload?uploadType=file', body, admin.token, headers);
      expect([answer.status, answer.body.errorCode, answer.body.errors?.map((error) => error.field)]).toEqual([400, 'VALIDATION_FAILED', ['file']]);
      expect(await store.keys()).toEqual(before);
      expect(await media.prisma.upload.count()).toBe(rows);
    });

    it('keeps a name of exactly 255 UTF-8 bytes as uploaded', async () => {
      const { media, admin } = local();
      const name = `${'é'.repeat(125)}a.txt`;
      expect(Buffer.byteLength(name)).toBe(255);
      const { body, headers } = rawMultipart('file', name, 'text/plain', Buffer.from('notes\n'));
      const answer = await send(media, '/api/upload?uploadType=file', body, admin.token, headers);
      expect(answer.status).toBe(200);
      expect((answer.body.data as { originalName: string }).originalName).toBe(name);
    });
  });

  describe('customer storage quota (CUSTOMER_STORAGE_QUOTA_MB, 1 MiB here)', () => {
    const file = (kib: number) => form('file', Buffer.alloc(kib * KIB, 'a'), 'notes.txt', 'text/plain');

    it('refuses the upload that would pass the quota with 413 UPLOAD_QUOTA_EXCEEDED, storing nothing; other customers are unaffected', async () => {
      const { media, store } = local();
      const customer = await media.caller('mobile');
      expect((await send(media, '/api/mobile/uploads?uploadType=file', file(600), customer.token)).status).toBe(200);
      const before = await store.keys();
      const refused = await send(media, '/api/mobile/uploads?uploadType=file', file(500), customer.token);
      expect([refused.status, refused.body.errorCode]).toEqual([413, 'UPLOAD_QUOTA_EXCEEDED']);
      expect(await store.keys()).toEqual(before);
      expect((await send(media, '/api/mobile/uploads?uploadType=file', file(400), customer.token)).status).toBe(200);
      const other = await media.caller('mobile');
      expect((await send(media, '/api/mobile/uploads?uploadType=file', file(600), other.token)).status).toBe(200);
    });

    it('never lets concurrent uploads pass the quota together', async () => {
      const { media } = local();
      const customer = await media.caller('mobile');
      const answers = await Promise.all(Array.from({ length: 8 }, () => send(media, '/api/mobile/uploads?uploadType=file', file(300), customer.token)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
      const { _sum } = await media.prisma.upload.aggregate({ where: { ownerId: customer.userId }, _sum: { size: true } });
      expect(Number(_sum.size)).toBeLessThanOrEqual(1024 * KIB);
    });
  });

  it('takes at most 100 keys in a batch of signed URLs: 400 VALIDATION_FAILED beyond', async () => {
    const { media, admin } = local();
    const keys = (count: number) => Array.from({ length: count }, (_, index) => `public/avatar/${index.toString(16).padStart(32, '0')}.webp`);
    const batch = (count: number) =>
      media.fetch('/api/upload/signed-urls', { method: 'POST', body: JSON.stringify({ keys: keys(count) }), headers: { 'content-type': 'application/json' }, token: admin.token });
    expect((await batch(100)).status).toBe(200);
    const refused = await batch(101);
    expect([refused.status, ((await refused.json()) as Envelope).errorCode]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('deletes the object and the record stored for a client that left before its 200 (local storage)', () => deletesWhatWasStoredForAClientThatLeft(local()));
});

describe('contract §9 on the s3 driver', () => {
  const s3 = mediaOn('s3');

  it('deletes the object and the record stored for a client that left before its 200 (s3 storage)', () => deletesWhatWasStoredForAClientThatLeft(s3()));
});

describe('contract §9: SIGNED_URL_SECRET unset is generated once per installation and kept', () => {
  let database: MigratedTestSchema;
  let storageDir: string;
  const running: MediaUnderTest[] = [];

  const configured = process.env['SIGNED_URL_SECRET'];

  beforeAll(async () => {
    delete process.env['SIGNED_URL_SECRET'];
    database = await mediaSchema();
    storageDir = await mkdtemp(join(tmpdir(), 'media-shared-storage-'));
  });
  afterAll(async () => {
    if (configured !== undefined) process.env['SIGNED_URL_SECRET'] = configured;
    for (const media of running) await media.close();
    await database?.drop();
    await rm(storageDir, { recursive: true, force: true });
  });

  async function start(options: { database?: MigratedTestSchema }): Promise<MediaUnderTest> {
    const env = { STORAGE_DIR: storageDir };
    const media = await startMedia(env, options);
    running.push(media);
    return media;
  }

  it('two processes of one installation share it (a URL signed by one opens on the other); a fresh installation has its own', async () => {
    const [first, second] = await Promise.all([start({ database }), start({ database })]);
    const customer = await first.caller('mobile');
    const uploaded = await send(first, '/api/mobile/uploads?uploadType=file', form('file', Buffer.from('shared\n'), 'a.txt', 'text/plain'), customer.token);
    expect(uploaded.status).toBe(200);
    const url = new URL((uploaded.body.data as { url: string }).url);
    const path = `${url.pathname}${url.search}`;
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

    const served = await second.fetch(path);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('shared\n');

    const elsewhere = await start({});
    const refused = await elsewhere.fetch(path);
    expect([refused.status, ((await refused.json()) as Envelope).errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
  });
});
