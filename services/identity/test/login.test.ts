import { describe, expect, it } from '@jest/globals';
import { JwtVerifier } from '@school/auth';
import { parseConfig } from '@school/config';
import { identityEnv } from '../src/config.js';
import { AUTH_PREFIX, createAccount, identitySuite, login, me, PASSWORD, sessionIdOf, type TokenPairData, uniqueEmail } from './kit/index.js';

const INVALID_CREDENTIALS = { message: 'Invalid email or password', data: null, errorCode: 'AUTH_INVALID_CREDENTIALS' };

/**
 * Login on the wire: the token pair, the envelopes of a refusal, the client address and device a
 * session keeps, the body's validation. Its rules (surfaces and roles, one refusal for every
 * failure, the decoy's argon2id work, a ban told last) are test/medium/login.medium.test.ts.
 */
describe('login (both surfaces)', () => {
  const identity = identitySuite();

  it('logs an admin in on the admin surface with the token pair and profile of contract §4', async () => {
    const admin = await createAccount(identity, { role: 'admin' });
    const before = Date.now();
    const answer = await login(identity, 'admin', admin.email, PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body.errorCode).toBeNull();
    const data = answer.body.data as TokenPairData;
    expect(Object.keys(data).sort()).toEqual(['accessToken', 'accessTokenExpiresAt', 'expiresIn', 'refreshToken', 'refreshTokenExpiresAt', 'tokenType', 'user'].sort());
    expect(data.tokenType).toBe('Bearer');
    expect(data.expiresIn).toBe(900);
    expect(data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const accessExpires = Date.parse(data.accessTokenExpiresAt);
    expect(accessExpires).toBeGreaterThanOrEqual(before + 899_000);
    expect(accessExpires).toBeLessThanOrEqual(Date.now() + 900_000);
    const refreshExpires = Date.parse(data.refreshTokenExpiresAt);
    expect(refreshExpires - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1_000);
    expect(refreshExpires - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(data.user).toEqual({
      publicId: admin.publicId,
      email: admin.email,
      name: 'Test Person',
      phone: null,
      role: 'admin',
      emailVerified: false,
      phoneVerified: false,
      hasPassword: true,
      address: null,
      createdAt: admin.createdAt.toISOString(),
    });

    // A real access token: signed with the JWKS key, claims sub/sid/role, accepted by the guards.
    const config = parseConfig(identityEnv, {});
    const verifier = new JwtVerifier({ jwksUrl: `${identity.baseUrl}/.well-known/jwks.json`, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE });
    const principal = await verifier.verify(data.accessToken);
    expect(principal).toEqual({ userId: admin.publicId, sessionId: expect.any(String), role: 'admin', surface: 'admin', expiresAt: new Date(data.accessTokenExpiresAt) });
    expect((await me(identity, 'admin', data.accessToken)).status).toBe(200);

    // Only the SHA-256 of the refresh token is stored.
    const tokens = await identity.prisma.refreshToken.findMany({ where: { sessionId: principal.sessionId } });
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0]!.tokenHash).not.toContain(data.refreshToken);
  });

  it("answers a refused login with the contract's envelopes on both surfaces: 401 as for a wrong password, 403 for a banned account", async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const banned = await createAccount(identity, { banned: true });
    expect(await login(identity, 'admin', staff.email, 'Wr0ng!password')).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    expect(await login(identity, 'mobile', uniqueEmail('nobody'), PASSWORD)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    expect(await login(identity, 'mobile', banned.email, PASSWORD)).toEqual({
      status: 403,
      body: { message: 'This account has been banned', data: null, errorCode: 'AUTH_ACCOUNT_BANNED' },
    });
  });

  it('stores the device, the client ip set by the gateway and the user agent on the session', async () => {
    const customer = await createAccount(identity);
    const response = await fetch(`${identity.baseUrl}${AUTH_PREFIX.mobile}/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identity.forwardedFrom('203.0.113.7, 10.0.0.1'), 'user-agent': 'SchoolApp/2.1 (Android 14)' },
      body: JSON.stringify({
        email: customer.email,
        password: PASSWORD,
        deviceInfo: { deviceId: 'a1b2c3d4', deviceType: 'android', deviceName: "Asha's Pixel" },
      }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: TokenPairData };
    const session = await identity.prisma.session.findUniqueOrThrow({ where: { id: sessionIdOf(data.accessToken) } });
    expect(session).toMatchObject({
      userId: customer.id,
      surface: 'mobile',
      deviceId: 'a1b2c3d4',
      deviceType: 'android',
      deviceName: "Asha's Pixel",
      ip: '203.0.113.7',
      userAgent: 'SchoolApp/2.1 (Android 14)',
      revokedAt: null,
    });
  });

  it('takes a direct caller, whatever X-Forwarded-For it writes, as its socket address: only the gateway signs the header', async () => {
    const customer = await createAccount(identity);
    const forged = identity.forwardedFrom('203.0.113.8');
    const attempts: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.8' },
      { ...forged, 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '203.0.113.8', 'x-forwarded-for-signature': 'forged' },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${identity.baseUrl}${AUTH_PREFIX.mobile}/login/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email: customer.email, password: PASSWORD }),
      });
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: TokenPairData };
      const session = await identity.prisma.session.findUniqueOrThrow({ where: { id: sessionIdOf(data.accessToken) } });
      expect({ headers, ip: session.ip }).toEqual({ headers, ip: '127.0.0.1' });
    }
  });

  it('falls back to the socket address without X-Forwarded-For, and accepts a login without deviceInfo', async () => {
    const customer = await createAccount(identity);
    const answer = await login(identity, 'mobile', customer.email, PASSWORD);
    const session = await identity.prisma.session.findUniqueOrThrow({ where: { id: sessionIdOf((answer.body.data as TokenPairData).accessToken) } });
    expect(session.ip).toBe('127.0.0.1');
    expect(session).toMatchObject({ deviceId: null, deviceType: null, deviceName: null });
  });

  describe('refuses a bad body with 400 VALIDATION_FAILED', () => {
    it.each([
      ['no email', { password: PASSWORD }, 'email'],
      ['no password', { email: 'a@example.com' }, 'password'],
      ['an empty password', { email: 'a@example.com', password: '' }, 'password'],
      ['a malformed email', { email: 'not-an-email', password: PASSWORD }, 'email'],
      ['an email over 255 characters', { email: `${'a'.repeat(250)}@example.com`, password: PASSWORD }, 'email'],
      ['a password over 128 characters', { email: 'a@example.com', password: 'x'.repeat(129) }, 'password'],
      ['a number as email', { email: 42, password: PASSWORD }, 'email'],
      ['an undeclared field', { email: 'a@example.com', password: PASSWORD, remember: true }, 'remember'],
      ['deviceInfo that is not an object', { email: 'a@example.com', password: PASSWORD, deviceInfo: 'phone' }, 'deviceInfo'],
      ['an undeclared deviceInfo field', { email: 'a@example.com', password: PASSWORD, deviceInfo: { os: 'x' } }, 'deviceInfo.os'],
      ['a blank deviceId', { email: 'a@example.com', password: PASSWORD, deviceInfo: { deviceId: '  ' } }, 'deviceInfo.deviceId'],
      ['a deviceType over 64 characters', { email: 'a@example.com', password: PASSWORD, deviceInfo: { deviceType: 'x'.repeat(65) } }, 'deviceInfo.deviceType'],
      ['a deviceName over 255 characters', { email: 'a@example.com', password: PASSWORD, deviceInfo: { deviceName: 'x'.repeat(256) } }, 'deviceInfo.deviceName'],
    ])('%s', async (_case, body, field) => {
      for (const surface of ['admin', 'mobile'] as const) {
        const answer = await identity.request('POST', `${AUTH_PREFIX[surface]}/login/email`, body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
        expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
    });

    it('__proto__ as an undeclared field', async () => {
      const answer = await identity.request('POST', `${AUTH_PREFIX.mobile}/login/email`, `{"email":"a@example.com","password":"x","__proto__":{"admin":true}}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });
  });
});
