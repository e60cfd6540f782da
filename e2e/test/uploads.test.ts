import { randomBytes } from 'node:crypto';
import { chunkedUploadHead, httpClient, multipartPrefix, sendOversized, uploadHead, writeThenRead } from '@school/testing';
import { BOOTSTRAP_ADMIN, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';

/** Issue 13, uploads (spec §4.4, §4.5, contract §8) through the gateway, as clients see them. */

let system: SystemView;
let admin: SignedIn;
let customer: SignedIn;

interface Answer {
  status: number;
  body: { message: string; data: Record<string, unknown> | null; errorCode: string | null };
}

const PASSWORD = 'Pers0n!Cedar-Vault';
/** A valid 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

const request = httpClient<Answer['body']>(() => system.gatewayUrl);
const call = (method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}) => request(method, path, body, token);

async function upload(
  path: string,
  bytes: Buffer,
  filename: string,
  type: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer & { retryAfter: string | null }> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', body, headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }) } });
  return { status: response.status, body: (await response.json()) as Answer['body'], retryAfter: response.headers.get('retry-after') };
}

const MIB = 1024 * 1024;
const randomIp = () => `10.${randomBytes(3).join('.')}`;

beforeAll(async () => {
  // The shared system has one trusted proxy: the throttle tests speak from addresses of their own (X-Forwarded-For).
  system = await sharedSystem();
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
  customer = await invitedPerson(system, admin.accessToken, 'customer', PASSWORD);
}, 90_000);

describe('uploads through the gateway', () => {
  it("stores an administrator PNG as WebP under the admin's publicId, at /api/upload and at /upload", async () => {
    for (const path of ['/api/upload', '/upload']) {
      const answer = await upload(path, PNG, 'dot.png', 'image/png', admin.accessToken);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body.data).toMatchObject({ originalName: 'dot.png', mimeType: 'image/webp' });
      expect(String(answer.body.data?.['relativePath'])).toMatch(new RegExp(`^uploads/image/${admin.publicId}/[0-9a-f]{32}\\.webp$`));
      expect(String(answer.body.data?.['url'])).toMatch(/\/api\/files\/signed\/uploads\/image\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
    }
  });

  it("binds each route to its surface: 401 without a token, 403 PERMISSION_INSUFFICIENT for the other surface's token", async () => {
    expect((await call('GET', '/api/upload/signed-url/public/image/x.webp')).status).toBe(401);
    expect((await call('POST', '/api/mobile/uploads')).status).toBe(401);
    const customerOnAdmin = await upload('/api/upload', PNG, 'dot.png', 'image/png', customer.accessToken);
    expect([customerOnAdmin.status, customerOnAdmin.body.errorCode]).toEqual([403, 'PERMISSION_INSUFFICIENT']);
    const adminOnMobile = await upload('/api/mobile/uploads', PNG, 'dot.png', 'image/png', admin.accessToken);
    expect([adminOnMobile.status, adminOnMobile.body.errorCode]).toEqual([403, 'PERMISSION_INSUFFICIENT']);
  });

  it('refuses HTML named .png with 400 UPLOAD_CONTENT_REJECTED and landing on the customer route with 400 UPLOAD_TYPE_INVALID', async () => {
    const disguised = await upload('/api/mobile/uploads', HTML, 'cat.png', 'image/png', customer.accessToken);
    expect([disguised.status, disguised.body.errorCode]).toEqual([400, 'UPLOAD_CONTENT_REJECTED']);
    const landing = await upload('/api/mobile/uploads?uploadType=landing', PNG, 'dot.png', 'image/png', customer.accessToken);
    expect([landing.status, landing.body.errorCode]).toEqual([400, 'UPLOAD_TYPE_INVALID']);
  });

  it('refuses a customer file over 5 MiB with 413 UPLOAD_TOO_LARGE', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5 * 1024 * 1024 + 1, 0x20)]);
    const answer = await upload('/api/mobile/uploads?uploadType=file', big, 'big.pdf', 'application/pdf', customer.accessToken);
    expect([answer.status, answer.body.errorCode]).toEqual([413, 'UPLOAD_TOO_LARGE']);
  });

  it("signs a customer's own key; the URL serves the file without a token and refuses a tampered one with 403", async () => {
    const stored = await upload('/api/mobile/uploads', PNG, 'mine.png', 'image/png', customer.accessToken);
    expect(stored.status).toBe(200);
    const key = String(stored.body.data?.['relativePath']);
    expect(key).toMatch(new RegExp(`^uploads/image/${customer.publicId}/`));

    const signed = await call('GET', `/api/mobile/uploads/signed-url/${key}?expiresIn=600`, { token: customer.accessToken });
    expect(signed.status).toBe(200);
    expect(signed.body.message).toBe('Signed URL generated');
    const url = new URL(String(signed.body.data?.['url']));
    expect(url.origin).toBe(system.gatewayUrl);
    const served = await fetch(`${system.gatewayUrl}${url.pathname}${url.search}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await served.arrayBuffer()).length).toBe(stored.body.data?.['size']);

    const tampered = await fetch(`${system.gatewayUrl}${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 1}&signature=${url.searchParams.get('signature')}`);
    expect(tampered.status).toBe(403);
    expect(((await tampered.json()) as Answer['body']).errorCode).toBe('UPLOAD_FORBIDDEN');

    const byAdmin = await call('GET', `/api/upload/signed-url/${key}`, { token: admin.accessToken });
    expect([byAdmin.status, byAdmin.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
  });

  it('stores a customer avatar publicly: "Local URL resolved", expiresAt null, served without a token', async () => {
    const stored = await upload('/mobile/uploads?uploadType=avatar', PNG, 'me.png', 'image/png', customer.accessToken);
    expect(stored.status).toBe(200);
    const key = String(stored.body.data?.['relativePath']);
    expect(key).toMatch(/^public\/avatar\/[0-9a-f]{32}\.webp$/);
    expect(stored.body.data?.['expiresAt']).toBeNull();
    const resolved = await call('GET', `/mobile/uploads/signed-url/${key}`, { token: customer.accessToken });
    expect(resolved.body).toEqual({ message: 'Local URL resolved', data: { url: `${system.gatewayUrl}/api/files/signed/${key}`, expiresAt: null }, errorCode: null });
    expect((await fetch(`${system.gatewayUrl}/api/files/signed/${key}`)).status).toBe(200);
  });
  it('resolves batches and proxies files on both surfaces, at /api and without it, checking ownership', async () => {
    const mine = await upload('/api/mobile/uploads', PNG, 'mine.png', 'image/png', customer.accessToken);
    const key = String(mine.body.data?.['relativePath']);
    for (const prefix of ['/api', '']) {
      const batch = await call('POST', `${prefix}/mobile/uploads/signed-urls`, { token: customer.accessToken, body: { keys: [key] } });
      expect({ prefix, status: batch.status, message: batch.body.message }).toEqual({ prefix, status: 200, message: 'URLs resolved' });
      expect(Object.keys(batch.body.data ?? {})).toEqual([key]);
      const proxied = await fetch(`${system.gatewayUrl}${prefix}/mobile/uploads/file/${key}`, { headers: { authorization: `Bearer ${customer.accessToken}` } });
      expect({ prefix, status: proxied.status }).toEqual({ prefix, status: 200 });
      expect(proxied.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(proxied.headers.get('content-type')).toBe('image/webp');
      expect(proxied.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(Buffer.from(await proxied.arrayBuffer()).length).toBe(mine.body.data?.['size']);
    }
    // Contract §9: at most 100 keys per batch, on both surfaces.
    const keys = Array.from({ length: 101 }, () => key);
    for (const [path, token] of [
      ['/api/mobile/uploads/signed-urls', customer.accessToken],
      ['/api/upload/signed-urls', admin.accessToken],
    ] as const) {
      const oversized = await call('POST', path, { token, body: { keys } });
      expect({ path, status: oversized.status, errorCode: oversized.body.errorCode }).toEqual({ path, status: 400, errorCode: 'VALIDATION_FAILED' });
    }
    const adminBatch = await call('POST', '/upload/signed-urls', { token: admin.accessToken, body: { keys: [key] } });
    expect([adminBatch.status, adminBatch.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
    const adminProxy = await call('GET', `/api/upload/file/${key}`, { token: admin.accessToken });
    expect([adminProxy.status, adminProxy.body.errorCode]).toEqual([403, 'UPLOAD_FORBIDDEN']);
  });

  it('stores several files from /api/upload/multiple and refuses eleven with 400 VALIDATION_FAILED', async () => {
    const batch = (count: number) => {
      const body = new FormData();
      for (let index = 0; index < count; index += 1) body.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), `p${index}.png`);
      return body;
    };
    const post = async (count: number) => {
      const response = await fetch(`${system.gatewayUrl}/api/upload/multiple`, { method: 'POST', body: batch(count), headers: { authorization: `Bearer ${admin.accessToken}` } });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    const two = await post(2);
    expect(two.status).toBe(200);
    expect(two.body.data).toHaveLength(2);
    const eleven = await post(11);
    expect([eleven.status, eleven.body.errorCode]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('answers uploads refused before their body is read with the envelope, even to clients that write a few MiB first', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4 * MIB, 0x20)]);
    const cases: Array<[string, string | undefined, number, string]> = [
      ['/api/upload?uploadType=file', undefined, 401, 'AUTH_UNAUTHENTICATED'],
      ['/mobile/uploads?uploadType=file', 'not-a-token', 401, 'AUTH_UNAUTHENTICATED'],
      ['/api/upload?uploadType=file', customer.accessToken, 403, 'PERMISSION_INSUFFICIENT'],
      ['/api/mobile/uploads?uploadType=file', admin.accessToken, 403, 'PERMISSION_INSUFFICIENT'],
    ];
    for (const [path, token, status, errorCode] of cases) {
      const answer = await upload(path, pdf, 'big.pdf', 'application/pdf', token);
      expect({ path, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ path, status, errorCode });
    }
    // A client that reads nothing until it has written 20 MiB: an early close would reset it.
    for (const [path, token, status] of [
      ['/api/upload', undefined, 401],
      ['/api/upload', customer.accessToken, 403],
      ['/api/mobile/uploads', admin.accessToken, 403],
    ] as const) {
      const length = path.includes('mobile') ? 5 * MIB : 20 * MIB;
      const exchange = await writeThenRead(system.gatewayUrl, uploadHead(path, length, token ? { authorization: `Bearer ${token}` } : {}), length);
      expect({ path, status, errors: exchange.errors, answer: exchange.response.slice(0, 12) }).toEqual({ path, status, errors: [], answer: `HTTP/1.1 ${status}` });
    }
  });

  it('cuts a 200 MiB customer upload off after about 5 MiB with 413 UPLOAD_TOO_LARGE', async () => {
    const head = chunkedUploadHead('/api/mobile/uploads?uploadType=file', 'oversized', { authorization: `Bearer ${customer.accessToken}`, 'x-forwarded-for': randomIp() });
    // The client waits after the cap and what loopback holds in flight: the answer must come from that.
    const exchange = await sendOversized(system.gatewayUrl, head, multipartPrefix('oversized', 'file', 'big.txt'), 200 * MIB, { pauseAt: 5 * MIB + 32 * MIB });
    expect(exchange.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.response).toContain('"errorCode":"UPLOAD_TOO_LARGE"');
    expect(exchange.writtenAtAnswer).toBeGreaterThan(5 * MIB);
  });

  it('throttles customer uploads to 10 per 60 s per ip, aliases counting together: the 11th is 429 RATE_LIMITED with Retry-After', async () => {
    const from = { 'x-forwarded-for': randomIp() };
    const statuses: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      statuses.push((await upload(index % 2 ? '/mobile/uploads' : '/api/mobile/uploads', PNG, 'dot.png', 'image/png', customer.accessToken, from)).status);
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
    const eleventh = await upload('/api/mobile/uploads', PNG, 'dot.png', 'image/png', customer.accessToken, from);
    expect([eleventh.status, eleventh.body]).toEqual([429, { message: 'Too many requests, please try again later', data: null, errorCode: 'RATE_LIMITED' }]);
    expect(Number(eleventh.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(eleventh.retryAfter)).toBeLessThanOrEqual(60);
    const otherIp = await upload('/api/mobile/uploads', PNG, 'dot.png', 'image/png', customer.accessToken, { 'x-forwarded-for': randomIp() });
    expect(otherIp.status).toBe(200);
  });

  it('throttles customer signed URLs to 60 per 60 s per ip: the 61st is 429 RATE_LIMITED with Retry-After', async () => {
    const stored = await upload('/api/mobile/uploads', PNG, 'mine.png', 'image/png', customer.accessToken, { 'x-forwarded-for': randomIp() });
    const key = String(stored.body.data?.['relativePath']);
    const from = { 'x-forwarded-for': randomIp() };
    const signedUrl = (path: string, headers = from) => fetch(`${system.gatewayUrl}${path}${key}`, { headers: { ...headers, authorization: `Bearer ${customer.accessToken}` } });
    const statuses: number[] = [];
    for (let index = 0; index < 60; index += 1) {
      statuses.push((await signedUrl(index % 2 ? '/mobile/uploads/signed-url/' : '/api/mobile/uploads/signed-url/')).status);
    }
    expect(statuses).toEqual(Array.from({ length: 60 }, () => 200));
    const refused = await signedUrl('/api/mobile/uploads/signed-url/');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many requests, please try again later', data: null, errorCode: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await signedUrl('/api/mobile/uploads/signed-url/', { 'x-forwarded-for': randomIp() })).status).toBe(200);
  });
});
