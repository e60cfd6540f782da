import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { AUTH_PREFIX, createAccount, identitySuite, lastEventOf, NEW_PASSWORD, PASSWORD, serveMessageRequests, type SurfaceName, uniqueEmail } from './kit/index.js';

interface Answer {
  status: number;
  retryAfter: number | null;
  errorCode: string | null;
}

/**
 * Contract §9: failed logins counted per email, known or not; the fifth in a row starts a back-off.
 * Here, the wire (429 with Retry-After, both surfaces, unknown emails, a reset, a full hash queue);
 * the count's rules (doubling, clearing, parallel attempts) are test/medium/login-backoff.medium.test.ts.
 */
describe('login back-off per email (contract §9)', () => {
  const identity = identitySuite();

  async function login(email: string, password: string, surface: SurfaceName = 'admin', ip = '198.51.100.1'): Promise<Answer> {
    const response = await fetch(`${identity.baseUrl}${AUTH_PREFIX[surface]}/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identity.forwardedFrom(ip) },
      body: JSON.stringify({ email, password }),
    });
    const body = (await response.json()) as { errorCode: string | null };
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, retryAfter: retryAfter === null ? null : Number(retryAfter), errorCode: body.errorCode };
  }

  async function failTimes(email: string, times: number, surface: SurfaceName = 'admin'): Promise<void> {
    for (let i = 0; i < times; i += 1) {
      // Each from another address: the count is the email's, never the ip's.
      expect((await login(email, 'Wrong!pass1', surface, `198.51.100.${10 + i}`)).status).toBe(401);
    }
  }

  function expectBackoff(answer: Answer, maxSeconds: number, minSeconds = 1): void {
    expect(answer.status).toBe(429);
    expect(answer.errorCode).toBe('RATE_LIMITED');
    expect(answer.retryAfter).toBeGreaterThanOrEqual(minSeconds);
    expect(answer.retryAfter).toBeLessThanOrEqual(maxSeconds);
  }

  it('refuses every login of the email after 5 failures in a row, the right password included, for about a minute', async () => {
    const user = await createAccount(identity, { role: 'admin' });
    await failTimes(user.email, 5);
    expectBackoff(await login(user.email, PASSWORD), 60, 50);
    expectBackoff(await login(user.email, PASSWORD, 'mobile', '203.0.113.99'), 60, 50);
  });

  it('answers an unknown email the same way', async () => {
    const email = uniqueEmail('nobody');
    await failTimes(email, 5);
    expectBackoff(await login(email, PASSWORD), 60, 50);
  });

  it('counts both surfaces together and the email as login normalises it', async () => {
    const user = await createAccount(identity, { role: 'customer' });
    await failTimes(user.email.toUpperCase(), 3, 'admin');
    await failTimes(` ${user.email} `.trim(), 2, 'mobile');
    expectBackoff(await login(user.email, PASSWORD, 'mobile'), 60, 50);
  });

  it('ends a back-off in progress when the account resets its password', async () => {
    const user = await createAccount(identity, { role: 'admin' });
    await failTimes(user.email, 5);
    expect((await login(user.email, PASSWORD)).status).toBe(429);
    expect((await identity.request('POST', '/api/auth/password/forgot', { email: user.email })).status).toBe(200);
    await serveMessageRequests(identity);
    const { otp } = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
    expect((await identity.request('POST', '/api/auth/password/reset', { email: user.email, otp, password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });
});

/** Contract §9: a login the hash queue cannot take (503) had no password checked, so it is no failure. */
describe('login back-off when the password-hash queue is full', () => {
  const identity = identitySuite({ PASSWORD_HASH_MAX_WAITING: '0' });

  async function login(email: string, password: string, ip: string): Promise<number> {
    const response = await fetch(`${identity.baseUrl}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identity.forwardedFrom(ip) },
      body: JSON.stringify({ email, password }),
    });
    return response.status;
  }

  it('counts the wrong passwords it checked, not the logins it answered 503', async () => {
    const email = uniqueEmail('busy');
    // Other emails' logins keep the queue's slots busy, so some of this email's find it full.
    const others = Array.from({ length: 30 }, (_, i) => login(uniqueEmail('crowd'), 'Wrong!pass1', `198.51.102.${i}`));
    const own = Array.from({ length: 4 }, (_, i) => login(email, 'Wrong!pass1', `198.51.103.${i}`));
    const statuses = await Promise.all([...own, ...others]);
    expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    expect(statuses).toContain(503);
    const checked = statuses.slice(0, own.length).filter((status) => status === 401).length;
    const emailKey = createHash('sha256').update(email).digest('hex');
    const row = await identity.prisma.loginFailure.findUnique({ where: { emailKey } });
    expect(row?.failures ?? 0).toBe(checked);
  });
});
