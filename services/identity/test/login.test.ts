import { describe, expect, it } from '@jest/globals';
import { JwtVerifier } from '@school/auth';
import { parseConfig } from '@school/config';
import { identityEnv } from '../src/config.js';
import { PasswordHasher } from '../src/passwords/password-hasher.js';
import { AUTH_PREFIX, createAccount, identitySuite, login, me, PASSWORD, sessionIdOf, type TokenPairData, uniqueEmail } from './kit/index.js';

const INVALID_CREDENTIALS = { message: 'Invalid email or password', data: null, errorCode: 'AUTH_INVALID_CREDENTIALS' };

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

  it('admits staff on the admin surface and customers on the mobile surface', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const customer = await createAccount(identity, { role: 'customer' });
    expect((await login(identity, 'admin', staff.email, PASSWORD)).status).toBe(200);
    expect((await login(identity, 'mobile', customer.email, PASSWORD)).status).toBe(200);
  });

  it('matches the email case-insensitively and ignores surrounding spaces', async () => {
    const customer = await createAccount(identity);
    expect((await login(identity, 'mobile', `  ${customer.email.toUpperCase()} `, PASSWORD)).status).toBe(200);
  });

  it('refuses every other surface and role combination with the same 401 as a wrong password', async () => {
    const admin = await createAccount(identity, { role: 'admin' });
    const staff = await createAccount(identity, { role: 'staff' });
    const customer = await createAccount(identity, { role: 'customer' });
    for (const [surface, email] of [
      ['mobile', admin.email],
      ['mobile', staff.email],
      ['admin', customer.email],
    ] as const) {
      const answer = await login(identity, surface, email, PASSWORD);
      expect(answer).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    }
  });

  it('answers an unknown email, a wrong password, a deleted account and an account without password identically', async () => {
    const customer = await createAccount(identity);
    const deleted = await createAccount(identity);
    await identity.prisma.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    const invited = await createAccount(identity, { password: null });

    const answers = [
      await login(identity, 'mobile', uniqueEmail('nobody'), PASSWORD),
      await login(identity, 'mobile', customer.email, 'Wr0ng!password'),
      await login(identity, 'mobile', deleted.email, PASSWORD),
      await login(identity, 'mobile', invited.email, PASSWORD),
    ];
    for (const answer of answers) expect(answer).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it('spends the same argon2id work on an unknown email as on a wrong password', async () => {
    // The rule, not the clock (timings on a loaded machine prove nothing either way): each login runs
    // exactly one argon2id verification, against a hash of the same parameters, whether the email is
    // known or not. Without the decoy an unknown email would run none.
    const hasher = identity.app.get(PasswordHasher, { strict: false });
    const verified: string[] = [];
    const verify = hasher.verify.bind(hasher);
    hasher.verify = (hash, password, client) => {
      verified.push(hash);
      return verify(hash, password, client);
    };
    const parameters = (hash: string) => /^\$argon2id\$v=\d+\$[^$]+\$/.exec(hash)?.[0];
    try {
      const customer = await createAccount(identity);
      expect((await login(identity, 'mobile', customer.email, 'Wr0ng!password')).status).toBe(401);
      expect((await login(identity, 'mobile', uniqueEmail('nobody'), 'Wr0ng!password')).status).toBe(401);
      expect(verified).toHaveLength(2);
      const [stored, decoy] = verified.map(parameters);
      expect(stored).toBeDefined();
      expect(decoy).toBe(stored);
      expect(verified[1]).not.toBe(verified[0]);
    } finally {
      hasher.verify = verify;
    }
  });

  it('tells a banned account so only after its correct password', async () => {
    const banned = await createAccount(identity, { banned: true });
    expect(await login(identity, 'mobile', banned.email, 'Wr0ng!password')).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    expect(await login(identity, 'mobile', banned.email, PASSWORD)).toEqual({
      status: 403,
      body: { message: 'This account has been banned', data: null, errorCode: 'AUTH_ACCOUNT_BANNED' },
    });
    expect(await identity.prisma.session.count({ where: { userId: banned.id } })).toBe(0);
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
