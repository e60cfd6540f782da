import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestIssuer, scaled } from '@school/testing';
import { clientAddress } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';

let system: SystemView;

beforeAll(async () => {
  system = await sharedSystem();
}, 90_000);

const api = (path: string, init?: RequestInit) => fetch(`${system.gatewayUrl}${path}`, init);
// Each POST from a client address of its own: the shared system's login throttles count other suites' logins too.
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() }, body: JSON.stringify(body) });

describe('the whole system through the gateway', () => {
  it('is ready and names all five services', async () => {
    const response = await api('/health/ready');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { checks: Record<string, string> } };
    expect(body.data.checks).toMatchObject({ identity: 'up', 'reference-data': 'up', feedback: 'up', media: 'up', notifier: 'up' });
    expect((await api('/health/live')).status).toBe(200);
  });

  it('serves the JWKS of identity', async () => {
    const response = await api('/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });

  it('answers unknown routes and other methods of known paths with 404 NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['PUT', '/api/auth/login/email'],
    ]) {
      const response = await api(path as string, { method: method as string });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: expect.any(String), data: null, errorCode: 'NOT_FOUND' });
    }
  });

  it('answers malformed JSON with 400 and a 2 MB body with 413, as envelopes', async () => {
    const malformed = await api('/api/auth/login/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
    const huge = await api('/api/auth/login/email', json({ email: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ data: null, errorCode: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses a missing token, alg none and HS256 tokens with 401 AUTH_UNAUTHENTICATED', async () => {
    const issuer = await createTestIssuer();
    try {
      const claims = { sub: '01900000-0000-7000-8000-000000000000', sid: '01900000-0000-7000-8000-000000000001', role: 'admin' as const };
      for (const authorization of [undefined, `Bearer ${await issuer.sign(claims, { alg: 'none' })}`, `Bearer ${await issuer.sign(claims, { alg: 'HS256' })}`]) {
        const response = await api('/api/auth/me', authorization ? { headers: { authorization } } : {});
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
      }
    } finally {
      await issuer.close();
    }
  });

  it('signs in the bootstrap admin, and a logout ends the session at once', async () => {
    const login = await api('/api/auth/login/email', json({ email: 'admin@example.com', password: 'Admin123!' }));
    expect(login.status).toBe(200);
    const { data } = (await login.json()) as { data: { accessToken: string; user: { role: string; hasPassword: boolean } } };
    expect(data.user).toMatchObject({ role: 'admin', hasPassword: true });
    const headers = { authorization: `Bearer ${data.accessToken}` };
    expect((await api('/api/auth/me', { headers })).status).toBe(200);
    expect((await api('/api/auth/logout', { method: 'DELETE', headers })).status).toBe(200);
    const after = await api('/api/auth/me', { headers });
    expect(after.status).toBe(401);
  });

  it('rotates refresh tokens, and a rotated one presented again ends the whole session', async () => {
    const login = await api('/api/auth/login/email', json({ email: 'admin@example.com', password: 'Admin123!' }));
    const first = ((await login.json()) as { data: { refreshToken: string } }).data;
    const rotated = await api('/api/auth/refresh', json({ refreshToken: first.refreshToken }));
    expect(rotated.status).toBe(200);
    const second = ((await rotated.json()) as { data: { accessToken: string; refreshToken: string } }).data;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const headers = { authorization: `Bearer ${second.accessToken}` };
    expect((await api('/api/auth/me', { headers })).status).toBe(200);

    const replay = await api('/api/auth/refresh', json({ refreshToken: first.refreshToken }));
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ message: 'Refresh token is invalid or expired', data: null, errorCode: 'AUTH_REFRESH_TOKEN_INVALID' });
    expect((await api('/api/auth/me', { headers })).status).toBe(401);
    expect((await api('/api/auth/refresh', json({ refreshToken: second.refreshToken }))).status).toBe(401);
  });

  it('delivers a password-reset email through the outbox, RabbitMQ and the notifier', async () => {
    const forgot = await api('/api/auth/password/forgot', json({ email: 'admin@example.com' }));
    expect(forgot.status).toBe(200);
    const deadline = Date.now() + scaled(20_000);
    let mail: string | undefined;
    while (!mail && Date.now() < deadline) {
      const files = (await readdir(system.mailDir)).filter((file) => file.endsWith('.eml'));
      for (const file of files) {
        const text = await readFile(join(system.mailDir, file), 'utf8');
        if (/^To: .*admin@example\.com/im.test(text) && /^Subject: Reset your password/im.test(text)) mail = text;
      }
      if (!mail) await sleep(200);
    }
    expect(mail).toBeDefined();
    expect(mail).toMatch(/\b\d{6}\b/);
  });
});
