import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import sharp from 'sharp';
import { UrlSigner } from '../src/storage/url-signer.js';
import { MAX_OPTIMISED_PIXELS } from '../src/uploads/optimised-size.js';
import { animatedGif, DOCX, form, HTML, image, MP4, PDF, pixelBomb, pngWithText, rotatedJpeg, SVG, ZIP } from './support/files.js';
import { type Caller, type MediaUnderTest, startMedia } from './support/media-app.js';
import { startS3, type TestS3 } from './support/s3-server.js';
import { localObjects, type StoredObjects, s3Objects } from './support/stored-objects.js';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const MIB = 1024 * 1024;

interface Envelope {
  message: string;
  data: Record<string, unknown> | null;
  errorCode: string | null;
}

type Driver = 'local' | 's3';
const DRIVERS: Driver[] = ['local', 's3'];

/** Every API the clock of jest's fake timers could replace except Date: only "now" moves. */
const ALL_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/** Runs `work` with Date.now() `aheadMs` in the future, for the service and the store alike (both run in this process). */
async function later<T>(aheadMs: number, work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({ now: Date.now() + aheadMs, doNotFake: [...ALL_BUT_DATE] });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

describe.each(DRIVERS)('media uploads over HTTP (%s storage)', (driver) => {
  let media: MediaUnderTest;
  let s3: TestS3 | undefined;
  let store: StoredObjects;
  let admin: Caller;
  let customer: Caller;
  let otherCustomer: Caller;

  beforeAll(async () => {
    s3 = driver === 's3' ? await startS3() : undefined;
    media = await startMedia({ SIGNED_URL_SECRET: SECRET, UPLOAD_MAX_FILE_SIZE_MB: '2', ...s3?.env });
    store = s3 ? s3Objects(s3) : localObjects(media.storageDir);
    admin = await media.caller('admin');
    customer = await media.caller('mobile');
    otherCustomer = await media.caller('mobile');
  });

  afterAll(async () => {
    await media?.close();
    await s3?.close();
  });

  /** The permanent URL of a public key: the gateway's for local files, S3_PUBLIC_BASE_URL's for s3. */
  function publicUrl(key: string): string {
    return s3 ? `${s3.endpoint}/${s3.bucket}/${key}` : `http://files.test/api/files/signed/${key}`;
  }

  /** A signed URL as handed out: the gateway's HMAC-signed route (local) or the store's presigned GET (s3). */
  function expectSignedUrl(url: unknown, key: string, expiresInSeconds: number): void {
    if (!s3) {
      expect(url).toMatch(new RegExp(`^http://files\\.test/api/files/signed/${key}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      return;
    }
    const parsed = new URL(String(url));
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(parsed.searchParams.get('X-Amz-Expires')).toBe(String(expiresInSeconds));
  }

  /** Fetches a URL the service handed out, without a bearer token (local URLs name the test's fake host). */
  function fetchHandedOut(url: string): Promise<Response> {
    if (s3) return fetch(url);
    const parsed = new URL(url);
    return media.fetch(`${parsed.pathname}${parsed.search}`);
  }

  async function upload(path: string, body: FormData, token: string): Promise<{ status: number; body: Envelope }> {
    const response = await media.fetch(path, { method: 'POST', body, token });
    return { status: response.status, body: (await response.json()) as Envelope };
  }

  async function get(path: string, token?: string): Promise<{ status: number; body: Envelope }> {
    const response = await media.fetch(path, token ? { token } : {});
    return { status: response.status, body: (await response.json()) as Envelope };
  }

  /** A GET with the path sent exactly as written (fetch would resolve `..` and `%2e%2e` first). */
  function rawGet(path: string, token: string): Promise<{ status: number; body: Envelope }> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(media.baseUrl);
      const request = httpRequest({ hostname, port, path, headers: { authorization: `Bearer ${token}` } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Envelope }));
      });
      request.on('error', reject);
      request.end();
    });
  }

  function storedFiles(): Promise<string[]> {
    return store.keys();
  }

  describe('POST /api/upload (administrator surface)', () => {
    it('stores a PNG as WebP under uploads/image/<userId>/ with a signed URL of about 2 hours', async () => {
      const before = Date.now();
      const answer = await upload('/api/upload', form('file', await image('png'), 'photo.png', 'image/png'), admin.token);
      expect(answer.status).toBe(200);
      expect(answer.body.errorCode).toBeNull();
      const data = answer.body.data as Record<string, unknown>;
      expect(data).toMatchObject({ originalName: 'photo.png', mimeType: 'image/webp' });
      expect(data['relativePath']).toMatch(new RegExp(`^uploads/image/${admin.userId}/[0-9a-f]{32}\\.webp$`));
      expect(data['filename']).toBe(String(data['relativePath']).split('/').pop());
      const stored = await store.read(String(data['relativePath']));
      expect(data['size']).toBe(stored.length);
      expect((await sharp(stored).metadata()).format).toBe('webp');
      expect(data['expiresAt']).toBeGreaterThanOrEqual(before + 7200_000);
      expect(data['expiresAt']).toBeLessThanOrEqual(Date.now() + 7200_000);
      expectSignedUrl(data['url'], String(data['relativePath']), 7200);
      const served = await fetchHandedOut(String(data['url']));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(stored);
      const row = await media.prisma.upload.findUnique({ where: { relativePath: String(data['relativePath']) } });
      expect(row).toMatchObject({ ownerId: admin.userId, uploadType: 'image', mimeType: 'image/webp', size: BigInt(stored.length), isPublic: false });
      expect(row?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row?.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('applies the EXIF orientation and strips the metadata when converting', async () => {
      const answer = await upload('/api/upload', form('file', await rotatedJpeg(40, 20), 'turned.jpg', 'image/jpeg'), admin.token);
      expect(answer.status).toBe(200);
      const stored = await store.read(String(answer.body.data?.['relativePath']));
      const metadata = await sharp(stored).metadata();
      expect({ width: metadata.width, height: metadata.height, exif: metadata.exif, orientation: metadata.orientation }).toEqual({
        width: 20,
        height: 40,
        exif: undefined,
        orientation: undefined,
      });
    });

    // What a conversion makes does not depend on the driver, and this one costs a second of CPU
    // (a JPEG of 40 megapixels encoded, then decoded): local storage only.
    if (driver === 'local') {
      it('shrinks an image over 4 megapixels to at most 4, keeping its aspect ratio and applying its orientation', async () => {
        const answer = await upload('/api/upload', form('file', await rotatedJpeg(7999, 4999), 'large.jpg', 'image/jpeg'), admin.token);
        expect(answer.status).toBe(200);
        const { width = 0, height = 0 } = await sharp(await store.read(String(answer.body.data?.['relativePath']))).metadata();
        expect(width * height).toBeLessThanOrEqual(MAX_OPTIMISED_PIXELS);
        expect(width * height).toBeGreaterThan(0.99 * MAX_OPTIMISED_PIXELS);
        expect(height / width).toBeCloseTo(7999 / 4999, 2);
      });
    }

    it('stores a panorama wider than a WebP may be, narrowed to 16383 pixels', async () => {
      const answer = await upload('/api/upload', form('file', await image('png', 20_000, 100), 'panorama.png', 'image/png'), admin.token);
      expect(answer.status).toBe(200);
      expect(await sharp(await store.read(String(answer.body.data?.['relativePath']))).metadata()).toMatchObject({ format: 'webp', width: 16_383 });
    });

    it('keeps an animated GIF animated as WebP', async () => {
      const answer = await upload('/api/upload', form('file', await animatedGif(), 'blink.gif', 'image/gif'), admin.token);
      expect(answer.status).toBe(200);
      const stored = await store.read(String(answer.body.data?.['relativePath']));
      expect(await sharp(stored, { animated: true }).metadata()).toMatchObject({ format: 'webp', pages: 2 });
    });

    it('refuses a valid image of more than 40 megapixels (a decompression bomb) with 400 UPLOAD_CONTENT_REJECTED, storing nothing', async () => {
      const bomb = pixelBomb();
      // A real image sharp would otherwise decode: small on the wire, 7200 x 7200 once decoded.
      expect(bomb.length).toBeLessThan(64 * 1024);
      expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 7200, height: 7200 });
      const before = await storedFiles();
      const answer = await upload('/api/upload', form('file', bomb, 'bomb.png', 'image/png'), admin.token);
      expect([answer.status, answer.body.errorCode]).toEqual([400, 'UPLOAD_CONTENT_REJECTED']);
      expect(await storedFiles()).toEqual(before);
    });

    it('keeps the original bytes with optimize=false', async () => {
      const png = await image('png');
      const answer = await upload('/api/upload?optimize=false', form('file', png, 'keep.png', 'image/png'), admin.token);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ mimeType: 'image/png', size: png.length });
      expect(String(answer.body.data?.['relativePath'])).toMatch(/\.png$/);
      expect(await store.read(String(answer.body.data?.['relativePath']))).toEqual(png);
    });

    it('stores a public type under public/<uploadType>/ with a permanent URL served without a token', async () => {
      const answer = await upload('/api/upload?uploadType=landing', form('file', await image('gif'), 'hero.gif', 'image/gif'), admin.token);
      expect(answer.status).toBe(200);
      const data = answer.body.data as Record<string, unknown>;
      expect(data['relativePath']).toMatch(/^public\/landing\/[0-9a-f]{32}\.webp$/);
      expect(data['expiresAt']).toBeNull();
      expect(data['url']).toBe(publicUrl(String(data['relativePath'])));
      const served = await fetchHandedOut(String(data['url']));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await served.arrayBuffer()).length).toBe(data['size']);
    });

    it('accepts a PDF, a CSV and a plain-text file as type file, stored as sent', async () => {
      for (const [bytes, name, type] of [
        [PDF, 'report.pdf', 'application/pdf'],
        [Buffer.from('name,grade\nÅsa,7\n'), 'grades.csv', 'text/csv'],
        [Buffer.from('plain notes\n'), 'notes.txt', 'text/plain'],
      ] as const) {
        const answer = await upload('/api/upload?uploadType=file', form('file', bytes, name, type), admin.token);
        expect({ name, status: answer.status, mimeType: answer.body.data?.['mimeType'] }).toEqual({ name, status: 200, mimeType: type });
        expect(await store.read(String(answer.body.data?.['relativePath']))).toEqual(bytes);
      }
    });

    it('accepts a DOCX and a ZIP as type file and an MP4 as type video, and a WebP as image', async () => {
      for (const [query, bytes, name, type] of [
        ['uploadType=file', DOCX, 'letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        ['uploadType=file', ZIP, 'bundle.zip', 'application/zip'],
        ['uploadType=video', MP4, 'clip.mp4', 'video/mp4'],
      ] as const) {
        const answer = await upload(`/api/upload?${query}`, form('file', bytes, name, type), admin.token);
        expect({ name, status: answer.status, mimeType: answer.body.data?.['mimeType'] }).toEqual({ name, status: 200, mimeType: type });
        expect(String(answer.body.data?.['relativePath'])).toMatch(new RegExp(`\\.${name.split('.').pop()}$`));
      }
      const webp = await upload('/api/upload', form('file', await image('webp'), 'w.webp', 'image/webp'), admin.token);
      expect([webp.status, webp.body.data?.['mimeType']]).toEqual([200, 'image/webp']);
    });

    it('refuses a DOCX sent as a ZIP, a ZIP named .docx and an MP4 as an image', async () => {
      for (const [query, bytes, name, type] of [
        ['uploadType=file', DOCX, 'letter.zip', 'application/zip'],
        ['uploadType=file', ZIP, 'letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        ['uploadType=image', MP4, 'clip.mp4', 'video/mp4'],
      ] as const) {
        const answer = await upload(`/api/upload?${query}`, form('file', bytes, name, type), admin.token);
        expect({ name, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ name, status: 400, errorCode: 'UPLOAD_CONTENT_REJECTED' });
      }
    });

    it('refuses content whose extension, claimed type and signature disagree: 400 UPLOAD_CONTENT_REJECTED', async () => {
      const png = await image('png');
      const cases: Array<[string, Buffer, string, string]> = [
        ['PNG named .jpg', png, 'photo.jpg', 'image/jpeg'],
        ['PNG sent as image/jpeg', png, 'photo.png', 'image/jpeg'],
        ['JPEG bytes named .png', await image('jpeg'), 'photo.png', 'image/png'],
        ['HTML named .png', HTML, 'innocent.png', 'image/png'],
        ['SVG', SVG, 'logo.svg', 'image/svg+xml'],
        ['SVG named .png', SVG, 'logo.png', 'image/png'],
        ['PNG bytes as a PDF', png, 'doc.pdf', 'application/pdf'],
      ];
      for (const [label, bytes, name, type] of cases) {
        const answer = await upload('/api/upload', form('file', bytes, name, type), admin.token);
        expect({ label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ label, status: 400, errorCode: 'UPLOAD_CONTENT_REJECTED' });
      }
      const textCases: Array<[string, Buffer, string, string]> = [
        ['HTML as text', HTML, 'page.txt', 'text/plain'],
        ['HTML named .html', HTML, 'page.html', 'text/html'],
        ['invalid UTF-8 as CSV', Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a]), 'bad.csv', 'text/csv'],
        ['NUL bytes as text', Buffer.from('a\u0000b'), 'nul.txt', 'text/plain'],
      ];
      for (const [label, bytes, name, type] of textCases) {
        const answer = await upload('/api/upload?uploadType=file', form('file', bytes, name, type), admin.token);
        expect({ label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ label, status: 400, errorCode: 'UPLOAD_CONTENT_REJECTED' });
      }
    });

    it('refuses SVG and HTML under every upload type, whatever name and type they claim', async () => {
      for (const [uploadType, name, type] of [
        ['image', 'x.png', 'image/png'],
        ['thumbnail', 'x.jpg', 'image/jpeg'],
        ['landing', 'x.gif', 'image/gif'],
        ['avatar', 'x.webp', 'image/webp'],
        ['file', 'x.txt', 'text/plain'],
        ['file', 'x.csv', 'text/csv'],
        ['file', 'x.pdf', 'application/pdf'],
        ['video', 'x.mp4', 'video/mp4'],
      ] as const) {
        for (const [label, bytes] of [
          ['SVG', SVG],
          ['HTML', HTML],
        ] as const) {
          const answer = await upload(`/api/upload?uploadType=${uploadType}&optimize=false`, form('file', bytes, name, type), admin.token);
          expect({ uploadType, name, label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({
            uploadType,
            name,
            label,
            status: 400,
            errorCode: 'UPLOAD_CONTENT_REJECTED',
          });
        }
      }
    });

    it('refuses polyglots: a real PNG or GIF carrying markup a browser could sniff, even with optimize=false', async () => {
      for (const [label, bytes, name, type] of [
        ['PNG with an HTML text chunk', await pngWithText('<html><script>alert(document.cookie)</script></html>'), 'p.png', 'image/png'],
        ['GIF header then HTML', Buffer.concat([Buffer.from('GIF89a'), HTML]), 'g.gif', 'image/gif'],
      ] as const) {
        expect(
          await sharp(bytes)
            .metadata()
            .then(
              () => 'decodable',
              () => 'not decodable',
            ),
        ).toBe(label.startsWith('PNG') ? 'decodable' : 'not decodable');
        const answer = await upload('/api/upload?optimize=false', form('file', bytes, name, type), admin.token);
        expect({ label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ label, status: 400, errorCode: 'UPLOAD_CONTENT_REJECTED' });
      }
    });

    it('answers 400 UPLOAD_TYPE_INVALID for an unknown uploadType and 400 UPLOAD_FILE_REQUIRED without a file', async () => {
      const png = await image('png');
      const badType = await upload('/api/upload?uploadType=document', form('file', png, 'a.png', 'image/png'), admin.token);
      expect([badType.status, badType.body.errorCode]).toEqual([400, 'UPLOAD_TYPE_INVALID']);
      const otherField = await upload('/api/upload', form('attachment', png, 'a.png', 'image/png'), admin.token);
      expect([otherField.status, otherField.body.errorCode]).toEqual([400, 'UPLOAD_FILE_REQUIRED']);
      const noBody = await media.fetch('/api/upload', { method: 'POST', token: admin.token });
      expect([noBody.status, ((await noBody.json()) as Envelope).errorCode]).toEqual([400, 'UPLOAD_FILE_REQUIRED']);
    });

    it('refuses a file over UPLOAD_MAX_FILE_SIZE_MB with 413 UPLOAD_TOO_LARGE and stores nothing', async () => {
      const before = await storedFiles();
      const big = Buffer.concat([PDF, Buffer.alloc(2 * MIB + 1, 0x20)]);
      const answer = await upload('/api/upload?uploadType=file', form('file', big, 'big.pdf', 'application/pdf'), admin.token);
      expect([answer.status, answer.body.errorCode]).toEqual([413, 'UPLOAD_TOO_LARGE']);
      expect(await storedFiles()).toEqual(before);
    });

    it('takes admin-surface tokens only: 401 without one, 403 PERMISSION_INSUFFICIENT for a customer token', async () => {
      const png = await image('png');
      const anonymous = await media.fetch('/api/upload', { method: 'POST', body: form('file', png, 'a.png', 'image/png') });
      expect(anonymous.status).toBe(401);
      const asCustomer = await upload('/api/upload', form('file', png, 'a.png', 'image/png'), customer.token);
      expect([asCustomer.status, asCustomer.body.errorCode]).toEqual([403, 'PERMISSION_INSUFFICIENT']);
    });
  });

  it("binds every route to its surface: 401 without a token, 403 PERMISSION_INSUFFICIENT with the other surface's", async () => {
    const key = `uploads/image/${customer.userId}/${'0'.repeat(32)}.webp`;
    const routes: Array<[string, string, 'admin' | 'mobile']> = [
      ['GET', `/api/upload/signed-url/${key}`, 'admin'],
      ['POST', '/api/upload/signed-urls', 'admin'],
      ['GET', `/api/upload/file/${key}`, 'admin'],
      ['POST', '/api/upload/multiple', 'admin'],
      ['GET', `/api/mobile/uploads/signed-url/${key}`, 'mobile'],
      ['POST', '/api/mobile/uploads/signed-urls', 'mobile'],
      ['GET', `/api/mobile/uploads/file/${key}`, 'mobile'],
    ];
    for (const [method, path, surface] of routes) {
      const other = surface === 'admin' ? customer.token : admin.token;
      const body = path.endsWith('signed-urls') ? JSON.stringify({ keys: [key] }) : undefined;
      const headers = body ? { 'content-type': 'application/json' } : undefined;
      const anonymous = await media.fetch(path, { method, ...(body && { body, headers }) });
      const wrongSurface = await media.fetch(path, { method, token: other, ...(body && { body, headers }) });
      expect({ path, anonymous: anonymous.status, wrongSurface: [wrongSurface.status, ((await wrongSurface.json()) as Envelope).errorCode] }).toEqual({
        path,
        anonymous: 401,
        wrongSurface: [403, 'PERMISSION_INSUFFICIENT'],
      });
    }
  });

  describe('POST /api/mobile/uploads (customer surface)', () => {
    it('stores an avatar under public/avatar/ as WebP with expiresAt null', async () => {
      const answer = await upload('/api/mobile/uploads?uploadType=avatar', form('file', await image('jpeg'), 'me.jpg', 'image/jpeg'), customer.token);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ mimeType: 'image/webp', expiresAt: null });
      expect(String(answer.body.data?.['relativePath'])).toMatch(/^public\/avatar\/[0-9a-f]{32}\.webp$/);
    });

    it('refuses a GIF as avatar, and landing, thumbnail and video as types', async () => {
      const gif = await upload('/api/mobile/uploads?uploadType=avatar', form('file', await image('gif'), 'me.gif', 'image/gif'), customer.token);
      expect([gif.status, gif.body.errorCode]).toEqual([400, 'UPLOAD_CONTENT_REJECTED']);
      for (const uploadType of ['landing', 'thumbnail', 'video']) {
        const answer = await upload(`/api/mobile/uploads?uploadType=${uploadType}`, form('file', await image('png'), 'a.png', 'image/png'), customer.token);
        expect({ uploadType, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ uploadType, status: 400, errorCode: 'UPLOAD_TYPE_INVALID' });
      }
    });

    it('caps customer files at 5 MiB whatever UPLOAD_MAX_FILE_SIZE_MB says, storing nothing', async () => {
      const before = await storedFiles();
      const big = Buffer.concat([PDF, Buffer.alloc(5 * MIB, 0x20)]);
      const answer = await upload('/api/mobile/uploads?uploadType=file', form('file', big, 'big.pdf', 'application/pdf'), customer.token);
      expect([answer.status, answer.body.errorCode]).toEqual([413, 'UPLOAD_TOO_LARGE']);
      expect(await storedFiles()).toEqual(before);
    });

    it('takes customer tokens only: 403 PERMISSION_INSUFFICIENT for an admin-surface token', async () => {
      const answer = await upload('/api/mobile/uploads', form('file', await image('png'), 'a.png', 'image/png'), admin.token);
      expect([answer.status, answer.body.errorCode]).toEqual([403, 'PERMISSION_INSUFFICIENT']);
    });
  });

  describe('signed URLs', () => {
    let privateKey: string;
    let publicKey: string;

    beforeAll(async () => {
      const own = await upload('/api/mobile/uploads', form('file', await image('png'), 'mine.png', 'image/png'), customer.token);
      privateKey = String(own.body.data?.['relativePath']);
      const avatar = await upload('/api/mobile/uploads?uploadType=avatar', form('file', await image('png'), 'me.png', 'image/png'), otherCustomer.token);
      publicKey = String(avatar.body.data?.['relativePath']);
    });

    it('signs the caller\'s own private key for expiresIn seconds (default 7200): "Signed URL generated"', async () => {
      const before = Date.now();
      const byDefault = await get(`/api/mobile/uploads/signed-url/${privateKey}`, customer.token);
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.message).toBe('Signed URL generated');
      expect(byDefault.body.data?.['expiresAt']).toBeGreaterThanOrEqual(before + 7200_000);
      expectSignedUrl(byDefault.body.data?.['url'], privateKey, 7200);
      const short = await get(`/api/mobile/uploads/signed-url/${privateKey}?expiresIn=60`, customer.token);
      expect(short.body.data?.['expiresAt']).toBeLessThanOrEqual(Date.now() + 60_000);
      expectSignedUrl(short.body.data?.['url'], privateKey, 60);
      for (const expiresIn of ['59', '604801', 'soon']) {
        const refused = await get(`/api/mobile/uploads/signed-url/${privateKey}?expiresIn=${expiresIn}`, customer.token);
        expect({ expiresIn, status: refused.status, errorCode: refused.body.errorCode }).toEqual({ expiresIn, status: 400, errorCode: 'VALIDATION_FAILED' });
      }
    });

    it('serves the file behind the signed URL without a bearer token until it expires, 403 after', async () => {
      const signed = await get(`/api/mobile/uploads/signed-url/${privateKey}?expiresIn=60`, customer.token);
      const url = String(signed.body.data?.['url']);
      const served = await fetchHandedOut(url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(await store.read(privateKey));
      expect((await later(30_000, () => fetchHandedOut(url))).status).toBe(200);
      const expired = await later(61_000, () => fetchHandedOut(url));
      expect(expired.status).toBe(403);
      if (!s3) expect(((await expired.json()) as Envelope).errorCode).toBe('UPLOAD_FORBIDDEN');
    });

    if (driver === 's3') {
      // s3rver checks a presigned URL's expiry and credential but not its V4 signature (unimplemented
      // there); a tampered signature or key is the store's own check (S3, MinIO), not this service's.
      it('hands out presigned URLs of the configured credential, SigV4-signed, refused (403) under another credential', async () => {
        const signed = await get(`/api/mobile/uploads/signed-url/${privateKey}`, customer.token);
        const url = new URL(String(signed.body.data?.['url']));
        expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
        expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
        expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
        const foreign = new URL(url);
        foreign.searchParams.set('X-Amz-Credential', String(url.searchParams.get('X-Amz-Credential')).replace(/^S3RVER/, 'SOMEONE'));
        expect((await fetch(foreign)).status).toBe(403);
      });
    }

    if (driver === 'local') {
      it("serves a signed file with the proxy's safe headers", async () => {
        const signed = await get(`/api/mobile/uploads/signed-url/${privateKey}`, customer.token);
        const served = await fetchHandedOut(String(signed.body.data?.['url']));
        expect(served.status).toBe(200);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('cache-control')).toBe('private, max-age=3600');
        expect(served.headers.get('content-disposition')).toBe(`inline; filename="${privateKey.split('/').pop()}"`);
      });

      it('refuses an expired, tampered or unsigned URL with 403', async () => {
        const signed = await get(`/api/mobile/uploads/signed-url/${privateKey}`, customer.token);
        const url = new URL(String(signed.body.data?.['url']));
        const expires = url.searchParams.get('expires') ?? '';
        const signature = url.searchParams.get('signature') ?? '';
        const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
        const past = Date.now() - 1000;
        const otherKey = privateKey.replace(/[0-9a-f]{32}/, 'f'.repeat(32));
        const attempts: Record<string, string> = {
          'tampered signature': `/api/files/signed/${privateKey}?expires=${expires}&signature=${flipped}`,
          'tampered expiry': `/api/files/signed/${privateKey}?expires=${Number(expires) + 1000}&signature=${signature}`,
          'tampered key': `/api/files/signed/${otherKey}?expires=${expires}&signature=${signature}`,
          'no signature': `/api/files/signed/${privateKey}`,
          expired: `/api/files/signed/${privateKey}?expires=${past}&signature=${new UrlSigner(SECRET).sign(privateKey, past)}`,
          'beyond the longest lifetime': (() => {
            const far = Date.now() + 8 * 24 * 3600_000;
            return `/api/files/signed/${privateKey}?expires=${far}&signature=${new UrlSigner(SECRET).sign(privateKey, far)}`;
          })(),
          'signed with another secret': `/api/files/signed/${privateKey}?expires=${expires}&signature=${new UrlSigner('x'.repeat(40)).sign(privateKey, Number(expires))}`,
        };
        for (const [label, path] of Object.entries(attempts)) {
          const answer = await get(path);
          expect({ label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ label, status: 403, errorCode: 'UPLOAD_FORBIDDEN' });
        }
      });
    }

    it("refuses another user's private key with 403 UPLOAD_FORBIDDEN, on both surfaces", async () => {
      const mobile = await get(`/api/mobile/uploads/signed-url/${privateKey}`, otherCustomer.token);
      expect([mobile.status, mobile.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
      const adminAnswer = await get(`/api/upload/signed-url/${privateKey}`, admin.token);
      expect([adminAnswer.status, adminAnswer.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
    });

    it('resolves public keys for anyone: "Local URL resolved" with expiresAt null', async () => {
      const answer = await get(`/api/mobile/uploads/signed-url/${publicKey}`, customer.token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        message: 'Local URL resolved',
        data: { url: publicUrl(publicKey), expiresAt: null },
        errorCode: null,
      });
      const asAdmin = await get(`/api/upload/signed-url/${publicKey}`, admin.token);
      expect(asAdmin.body.message).toBe('Local URL resolved');
    });

    it('allows a legacy key without a userId segment, logging a warning', async () => {
      const answer = await get('/api/upload/signed-url/uploads/image/legacy-photo.png', admin.token);
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('Signed URL generated');
      const warnings = media.logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.msg.includes('uploads/image/legacy-photo.png'));
      expect(warnings).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining('legacy key without a userId segment') })]);
    });

    it('refuses keys that could leave the storage root with 400 VALIDATION_FAILED, encoded or not', async () => {
      const keys = [
        'uploads/image/../../../etc/passwd',
        'uploads/image/%2e%2e/%2E%2E/etc/passwd',
        'uploads/image/%252e%252e/etc/passwd',
        'uploads%5Cimage%5C..%5Cx.png',
        'uploads/image/x%00.png',
        '/etc/passwd',
        '%2Fetc/passwd',
      ];
      for (const key of keys) {
        for (const route of ['/api/upload/signed-url/', '/api/files/signed/']) {
          const answer = await rawGet(`${route}${key}`, admin.token);
          expect({ key, route, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ key, route, status: 400, errorCode: 'VALIDATION_FAILED' });
        }
      }
    });
  });
  describe('batch signed URLs, the file proxy and multiple uploads', () => {
    let ownKey: string;
    let foreignKey: string;
    let publicKey: string;
    let ownBytes: Buffer;

    beforeAll(async () => {
      const own = await upload('/api/mobile/uploads?uploadType=file', form('file', Buffer.from('0123456789abcdef'), 'digits.txt', 'text/plain'), customer.token);
      ownKey = String(own.body.data?.['relativePath']);
      ownBytes = await store.read(ownKey);
      const foreign = await upload('/api/mobile/uploads', form('file', await image('png'), 'theirs.png', 'image/png'), otherCustomer.token);
      foreignKey = String(foreign.body.data?.['relativePath']);
      const avatar = await upload('/api/mobile/uploads?uploadType=avatar', form('file', await image('png'), 'me.png', 'image/png'), otherCustomer.token);
      publicKey = String(avatar.body.data?.['relativePath']);
    });

    async function post(path: string, body: unknown, token: string): Promise<{ status: number; body: Envelope }> {
      const response = await media.fetch(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, token });
      return { status: response.status, body: (await response.json()) as Envelope };
    }

    it('resolves a batch of keys: "URLs resolved", keyed by key, expiresAt null for public keys', async () => {
      const before = Date.now();
      for (const path of ['/api/mobile/uploads/signed-urls', '/api/upload/signed-urls']) {
        const token = path.startsWith('/api/mobile') ? customer.token : admin.token;
        const keys = path.startsWith('/api/mobile') ? [ownKey, publicKey] : [publicKey, 'uploads/image/legacy.png'];
        const answer = await post(path, { keys, expiresIn: 120 }, token);
        expect(answer.status).toBe(200);
        expect(answer.body.message).toBe('URLs resolved');
        expect(Object.keys(answer.body.data ?? {}).sort()).toEqual([...keys].sort());
        const data = answer.body.data as Record<string, { url: string; expiresAt: number | null }>;
        expect(data[publicKey]).toEqual({ url: publicUrl(publicKey), expiresAt: null });
        const privateKey = keys.find((key) => key !== publicKey) ?? '';
        expect(data[privateKey]?.expiresAt).toBeGreaterThanOrEqual(before + 120_000);
        expect(data[privateKey]?.expiresAt).toBeLessThanOrEqual(Date.now() + 120_000);
        expectSignedUrl(data[privateKey]?.url, privateKey, 120);
      }
    });

    it("refuses a batch holding another user's key (403), a bad key or expiresIn (400), no keys or undeclared fields (400)", async () => {
      const foreign = await post('/api/mobile/uploads/signed-urls', { keys: [ownKey, foreignKey] }, customer.token);
      expect([foreign.status, foreign.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
      for (const body of [{ keys: ['uploads/../x'] }, { keys: [ownKey], expiresIn: 30 }, { keys: [] }, {}, { keys: [ownKey], extra: 1 }]) {
        const answer = await post('/api/mobile/uploads/signed-urls', body, customer.token);
        expect({ body, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ body, status: 400, errorCode: 'VALIDATION_FAILED' });
      }
    });

    it("proxies the owner's file with private caching, its stored type, nosniff and a download disposition", async () => {
      for (const [path, token] of [
        [`/api/mobile/uploads/file/${ownKey}`, customer.token],
        [`/api/upload/file/${publicKey}`, admin.token],
      ] as const) {
        const served = await media.fetch(path, { token });
        expect({ path, status: served.status }).toEqual({ path, status: 200 });
        expect(served.headers.get('cache-control')).toBe('private, max-age=3600');
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        const key = path.replace(/^\/api\/(?:mobile\/uploads|upload)\/file\//, '');
        expect(Buffer.from(await served.arrayBuffer())).toEqual(await store.read(key));
      }
      const text = await media.fetch(`/api/mobile/uploads/file/${ownKey}`, { token: customer.token });
      expect(text.headers.get('content-type')).toBe('text/plain');
      expect(text.headers.get('content-disposition')).toBe(`attachment; filename="${ownKey.split('/').pop()}"`);
    });

    it('serves byte ranges: 206 with Content-Range, 416 past the end', async () => {
      const partial = await media.fetch(`/api/mobile/uploads/file/${ownKey}`, { token: customer.token, headers: { range: 'bytes=2-5' } });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 2-5/${ownBytes.length}`);
      expect(Buffer.from(await partial.arrayBuffer())).toEqual(ownBytes.subarray(2, 6));
      const suffix = await media.fetch(`/api/mobile/uploads/file/${ownKey}`, { token: customer.token, headers: { range: 'bytes=-3' } });
      expect(Buffer.from(await suffix.arrayBuffer())).toEqual(ownBytes.subarray(ownBytes.length - 3));
      const beyond = await media.fetch(`/api/mobile/uploads/file/${ownKey}`, { token: customer.token, headers: { range: 'bytes=999-' } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${ownBytes.length}`);
      expect(((await beyond.json()) as Envelope).errorCode).toBe('RANGE_NOT_SATISFIABLE');
    });

    it("refuses another user's file with 403 UPLOAD_FORBIDDEN and a missing one with 404 FILE_NOT_FOUND", async () => {
      const foreign = await get(`/api/mobile/uploads/file/${foreignKey}`, customer.token);
      expect([foreign.status, foreign.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
      const missing = await get(`/api/mobile/uploads/file/uploads/image/${customer.userId}/${'0'.repeat(32)}.webp`, customer.token);
      expect([missing.status, missing.body.errorCode]).toEqual([404, 'FILE_NOT_FOUND']);
    });

    function many(count: number, bytes: Buffer, name = 'p.png', type = 'image/png'): FormData {
      const body = new FormData();
      for (let index = 0; index < count; index += 1) body.append('files', new Blob([new Uint8Array(bytes)], { type }), name);
      return body;
    }

    it('stores 1 to 10 files from the files field, each as a single upload would', async () => {
      const answer = await upload('/api/upload/multiple?uploadType=thumbnail', many(2, await image('png')), admin.token);
      expect(answer.status).toBe(200);
      const results = answer.body.data as unknown as Array<Record<string, unknown>>;
      expect(results).toHaveLength(2);
      for (const result of results) {
        expect(result).toMatchObject({ originalName: 'p.png', mimeType: 'image/webp', expiresAt: null });
        expect(String(result['relativePath'])).toMatch(/^public\/thumbnail\/[0-9a-f]{32}\.webp$/);
      }
    });

    it('refuses 0 or 11 files, and a batch with one bad file, with 400 and stores none of them', async () => {
      const before = await storedFiles();
      const rows = await media.prisma.upload.count();
      const png = await image('png');
      const none = new FormData();
      none.append('note', 'no files');
      for (const [label, body, code] of [
        ['no file', none, 'VALIDATION_FAILED'],
        ['eleven files', many(11, png), 'VALIDATION_FAILED'],
        [
          'one disguised file',
          (() => {
            const body = many(2, png);
            body.append('files', new Blob([new Uint8Array(HTML)], { type: 'image/png' }), 'x.png');
            return body;
          })(),
          'UPLOAD_CONTENT_REJECTED',
        ],
      ] as const) {
        const answer = await upload('/api/upload/multiple', body, admin.token);
        expect({ label, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ label, status: 400, errorCode: code });
      }
      expect(await storedFiles()).toEqual(before);
      expect(await media.prisma.upload.count()).toBe(rows);
    });
  });
});

describe('media uploads when the storage fails: 502 STORAGE_UNAVAILABLE, no record, no object', () => {
  /** `store`: where to look for a half-written object, when the store can still be read. */
  async function expectRefusedAndNothingKept(media: MediaUnderTest, store?: StoredObjects): Promise<void> {
    const before = await store?.keys();
    const caller = await media.caller('admin');
    const response = await media.fetch('/api/upload?uploadType=file', { method: 'POST', body: form('file', Buffer.from('notes\n'), 'a.txt', 'text/plain'), token: caller.token });
    expect([response.status, ((await response.json()) as Envelope).errorCode]).toEqual([502, 'STORAGE_UNAVAILABLE']);
    expect(await media.prisma.upload.count()).toBe(0);
    if (store) expect(await store.keys()).toEqual(before);
  }

  it('local: the storage folder cannot be written', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'media-blocked-'));
    const blocked = join(parent, 'not-a-folder');
    await writeFile(blocked, 'a file where the storage folder should be');
    const media = await startMedia({ STORAGE_DIR: blocked });
    try {
      await expectRefusedAndNothingKept(media, localObjects(parent));
    } finally {
      await media.close();
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('s3: the store rejects the upload (a credential it does not know)', async () => {
    const s3 = await startS3();
    const media = await startMedia({ ...s3.env, S3_ACCESS_KEY: 'UNKNOWN' });
    try {
      await expectRefusedAndNothingKept(media, s3Objects(s3));
    } finally {
      await media.close();
      await s3.close();
    }
  });

  it('s3: the store is down', async () => {
    const s3 = await startS3();
    const media = await startMedia(s3.env);
    try {
      await s3.close();
      await expectRefusedAndNothingKept(media);
    } finally {
      await media.close();
    }
  });
});
