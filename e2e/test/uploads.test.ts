import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP_ADMIN, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { type RunningSystem, startSystem } from './support/system.js';

/** Issue 13, uploads (spec §4.4, §4.5, contract §8) through the gateway, as clients see them. */

let system: RunningSystem;
let storageDir: string;
let admin: SignedIn;
let customer: SignedIn;

interface Answer {
  status: number;
  body: { message: string; data: Record<string, unknown> | null; errorCode: string | null };
}

const PASSWORD = 'Pers0n!pw';
/** A valid 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

async function call(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${system.gatewayUrl}${path}`, { method, headers, ...(options.body !== undefined && { body: JSON.stringify(options.body) }) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

async function upload(path: string, bytes: Buffer, filename: string, type: string, token?: string): Promise<Answer> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', body, ...(token && { headers: { authorization: `Bearer ${token}` } }) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'e2e-storage-'));
  system = await startSystem({ env: { STORAGE_DIR: storageDir } });
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
  customer = await invitedPerson(system, admin.accessToken, 'customer', PASSWORD);
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('uploads through the gateway', () => {
  it('stores an administrator PNG as WebP under the admin\'s publicId, at /api/upload and at /upload', async () => {
    for (const path of ['/api/upload', '/upload']) {
      const answer = await upload(path, PNG, 'dot.png', 'image/png', admin.accessToken);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body.data).toMatchObject({ originalName: 'dot.png', mimeType: 'image/webp' });
      expect(String(answer.body.data?.['relativePath'])).toMatch(new RegExp(`^uploads/image/${admin.publicId}/[0-9a-f]{32}\\.webp$`));
      expect(String(answer.body.data?.['url'])).toMatch(/\/api\/files\/signed\/uploads\/image\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
    }
  });

  it('binds each route to its surface: 401 without a token, 403 PERMISSION_INSUFFICIENT for the other surface\'s token', async () => {
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

  it('signs a customer\'s own key; the URL serves the file without a token and refuses a tampered one with 403', async () => {
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
      expect(Buffer.from(await proxied.arrayBuffer()).length).toBe(mine.body.data?.['size']);
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
});
