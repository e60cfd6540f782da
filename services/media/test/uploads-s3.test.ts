import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { form, HTML, image } from './support/files.js';
import { type Caller, type MediaUnderTest, startMedia } from './support/media-app.js';
import { startS3, type TestS3 } from './support/s3-server.js';

interface Envelope {
  message: string;
  data: Record<string, unknown> | null;
  errorCode: string | null;
}

describe('media uploads over HTTP (s3 storage, a real S3-protocol server)', () => {
  let s3: TestS3;
  let media: MediaUnderTest;
  let customer: Caller;
  let otherCustomer: Caller;

  beforeAll(async () => {
    s3 = await startS3();
    media = await startMedia(s3.env);
    customer = await media.caller('mobile');
    otherCustomer = await media.caller('mobile');
  });

  afterAll(async () => {
    await media?.close();
    await s3?.close();
  });

  async function upload(path: string, body: FormData, token: string): Promise<{ status: number; body: Envelope }> {
    const response = await media.fetch(path, { method: 'POST', body, token });
    return { status: response.status, body: (await response.json()) as Envelope };
  }

  it('stores a WebP in the bucket and answers the store\'s presigned URL, which serves it', async () => {
    const before = Date.now();
    const answer = await upload('/api/mobile/uploads', form('file', await image('png'), 'photo.png', 'image/png'), customer.token);
    expect(answer.status).toBe(200);
    const data = answer.body.data as Record<string, unknown>;
    expect(data['relativePath']).toMatch(new RegExp(`^uploads/image/${customer.userId}/[0-9a-f]{32}\\.webp$`));
    expect(data['expiresAt']).toBeGreaterThanOrEqual(before + 7200_000);
    const url = new URL(String(data['url']));
    expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${String(data['relativePath'])}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('7200');
    const fromStore = await fetch(url);
    expect(fromStore.status).toBe(200);
    const bytes = Buffer.from(await fromStore.arrayBuffer());
    expect(bytes.length).toBe(data['size']);
    expect((await sharp(bytes).metadata()).format).toBe('webp');
  });

  it('signs with expiresIn, checks ownership, and resolves public keys under S3_PUBLIC_BASE_URL', async () => {
    const own = await upload('/api/mobile/uploads', form('file', await image('jpeg'), 'p.jpg', 'image/jpeg'), customer.token);
    const key = String(own.body.data?.['relativePath']);
    const signed = await media.fetch(`/api/mobile/uploads/signed-url/${key}?expiresIn=60`, { token: customer.token });
    const signedBody = (await signed.json()) as Envelope;
    expect(signedBody.message).toBe('Signed URL generated');
    expect(new URL(String(signedBody.data?.['url'])).searchParams.get('X-Amz-Expires')).toBe('60');
    const foreign = await media.fetch(`/api/mobile/uploads/signed-url/${key}`, { token: otherCustomer.token });
    expect([foreign.status, ((await foreign.json()) as Envelope).errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);

    const avatar = await upload('/api/mobile/uploads?uploadType=avatar', form('file', await image('png'), 'me.png', 'image/png'), customer.token);
    const publicKey = String(avatar.body.data?.['relativePath']);
    expect(avatar.body.data).toMatchObject({ url: `${s3.endpoint}/${s3.bucket}/${publicKey}`, expiresAt: null });
    const resolved = await media.fetch(`/api/mobile/uploads/signed-url/${publicKey}`, { token: otherCustomer.token });
    expect(await resolved.json()).toEqual({ message: 'Local URL resolved', data: { url: `${s3.endpoint}/${s3.bucket}/${publicKey}`, expiresAt: null }, errorCode: null });
  });

  it('proxies a stored object with its type and ranges', async () => {
    const text = Buffer.from('0123456789');
    const stored = await upload('/api/mobile/uploads?uploadType=file', form('file', text, 'n.txt', 'text/plain'), customer.token);
    const key = String(stored.body.data?.['relativePath']);
    const whole = await media.fetch(`/api/mobile/uploads/file/${key}`, { token: customer.token });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('text/plain');
    expect(whole.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(text);
    const part = await media.fetch(`/api/mobile/uploads/file/${key}`, { token: customer.token, headers: { range: 'bytes=3-4' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('34');
  });

  it('refuses disguised content before anything reaches the bucket', async () => {
    const rows = await media.prisma.upload.count();
    const answer = await upload('/api/mobile/uploads', form('file', HTML, 'x.png', 'image/png'), customer.token);
    expect([answer.status, answer.body.errorCode]).toEqual([400, 'UPLOAD_CONTENT_REJECTED']);
    expect(await media.prisma.upload.count()).toBe(rows);
  });

  it('answers 502 STORAGE_UNAVAILABLE when the store rejects the upload, recording nothing', async () => {
    const rows = await media.prisma.upload.count();
    await s3.close();
    const answer = await upload('/api/mobile/uploads', form('file', await image('png'), 'late.png', 'image/png'), customer.token);
    expect([answer.status, answer.body.errorCode]).toEqual([502, 'STORAGE_UNAVAILABLE']);
    expect(await media.prisma.upload.count()).toBe(rows);
  });
});
