import { Redis } from 'ioredis';
import { closedPort, createTestIssuer, scaled, type TestIssuer } from '@school/testing';
import { Authenticator, createAuthRedis, JwtVerifier, REVOKED_SESSIONS_KEY, SessionRevocations } from '@school/auth';
import { failureCode, randomPrefix, REDIS_URL } from './helpers.js';

const claims = { sub: 'user-public-id', sid: 'session-1', role: 'admin' };

describe('Authenticator against a JWKS and real Redis', () => {
  let issuer: TestIssuer;
  let redis: Redis;
  let prefix: string;
  let authenticator: Authenticator;
  let revocations: SessionRevocations;

  beforeAll(async () => {
    issuer = await createTestIssuer();
    redis = new Redis(REDIS_URL);
  });

  beforeEach(async () => {
    prefix = randomPrefix();
    revocations = new SessionRevocations(redis, { key: `${prefix}revoked` });
    await revocations.start();
    authenticator = new Authenticator(new JwtVerifier(issuer), revocations);
  });

  afterEach(async () => {
    await revocations.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  });

  afterAll(async () => {
    await redis.quit();
    await issuer.close();
  });

  const bearer = async (...args: Parameters<TestIssuer['sign']>) => `Bearer ${await issuer.sign(...args)}`;

  it('accepts a valid EdDSA or ES256 token and returns the principal', async () => {
    const before = Math.floor(Date.now() / 1000);
    await expect(authenticator.authenticate(await bearer(claims, { expiresIn: 600 }))).resolves.toEqual({
      userId: 'user-public-id',
      sessionId: 'session-1',
      role: 'admin',
      surface: 'admin',
      expiresAt: expect.any(Date),
    });
    const { expiresAt } = await authenticator.authenticate(await bearer(claims, { expiresIn: 600 }));
    expect(expiresAt.getTime() / 1000).toBeGreaterThanOrEqual(before + 600);
    expect(expiresAt.getTime() / 1000).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    await expect(authenticator.authenticate(await bearer({ ...claims, role: 'customer' }, { alg: 'ES256' }))).resolves.toEqual({
      userId: 'user-public-id',
      sessionId: 'session-1',
      role: 'customer',
      surface: 'mobile',
      expiresAt: expect.any(Date),
    });
    await expect(authenticator.authenticate(`bearer  ${await issuer.sign(claims)}`)).resolves.toMatchObject({ role: 'admin' });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['three garbage segments', 'Bearer aaa.bbb.ccc'],
  ])('refuses %s with 401 AUTH_UNAUTHENTICATED', async (_case, header) => {
    expect(await failureCode(authenticator.authenticate(header))).toBe('AUTH_UNAUTHENTICATED');
  });

  it.each([
    ['alg none', { alg: 'none' as const }],
    ['HS256 (symmetric)', { alg: 'HS256' as const }],
    ['a wrong issuer', { issuer: 'https://evil.example' }],
    ['a wrong audience', { audience: 'another-audience' }],
    ['an expired exp', { expiresIn: -5 }],
    ['an unknown kid', { kid: 'unknown-kid' }],
  ])('refuses a token with %s with 401', async (_case, options) => {
    expect(await failureCode(authenticator.authenticate(await bearer(claims, options)))).toBe('AUTH_UNAUTHENTICATED');
  });

  it.each([
    ['no srf claim (a token from before surfaces)', { srf: undefined }],
    ['an unknown surface', { srf: 'partner' }],
    ['a non-string surface', { srf: 1 }],
  ])('refuses a token with %s with 401', async (_case, surface) => {
    expect(await failureCode(authenticator.authenticate(await bearer({ ...claims, ...surface })))).toBe('AUTH_UNAUTHENTICATED');
  });

  it('reads the surface from the srf claim, whatever the role', async () => {
    await expect(authenticator.authenticate(await bearer({ ...claims, srf: 'mobile' }))).resolves.toMatchObject({ role: 'admin', surface: 'mobile' });
  });

  it('refuses a token whose signature was tampered with', async () => {
    const [header, payload] = (await issuer.sign(claims)).split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin', sub: 'someone-else' })).toString('base64url');
    const otherSignature = (await issuer.sign({ ...claims, sub: 'x' })).split('.')[2];
    expect(await failureCode(authenticator.authenticate(`Bearer ${header}.${forgedPayload}.${otherSignature}`))).toBe('AUTH_UNAUTHENTICATED');
  });

  it('refuses a token signed by a key the JWKS does not publish, even with the right kid', async () => {
    const stranger = await createTestIssuer();
    try {
      const forged = await stranger.sign(claims, { kid: issuer.kid });
      expect(await failureCode(authenticator.authenticate(`Bearer ${forged}`))).toBe('AUTH_UNAUTHENTICATED');
      expect(await failureCode(authenticator.authenticate(`Bearer ${await stranger.sign(claims)}`))).toBe('AUTH_UNAUTHENTICATED');
    } finally {
      await stranger.close();
    }
  });

  it.each([
    ['no sub', { sid: 's', role: 'admin' }],
    ['no sid', { sub: 'u', role: 'admin' }],
    ['no role', { sub: 'u', sid: 's' }],
    ['an unknown role', { sub: 'u', sid: 's', role: 'superuser' }],
    ['an empty sub', { sub: '', sid: 's', role: 'admin' }],
    ['a numeric sid', { sub: 'u', sid: 42, role: 'admin' }],
    ['no exp', { ...claims, exp: undefined }],
  ])('refuses a token with %s', async (_case, tokenClaims) => {
    expect(await failureCode(authenticator.authenticate(await bearer(tokenClaims)))).toBe('AUTH_UNAUTHENTICATED');
  });

  it('refuses the tokens of a revoked session and only those, a token verified before included', async () => {
    const token = await bearer(claims);
    const otherSession = await bearer({ ...claims, sid: 'session-2' });
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ sessionId: 'session-1' });
    await revocations.revoke('session-1', 900);

    expect(await failureCode(authenticator.authenticate(token))).toBe('AUTH_UNAUTHENTICATED');
    await expect(authenticator.authenticate(otherSession)).resolves.toMatchObject({ sessionId: 'session-2' });
  });

  it('refuses a token verified before once it has expired', async () => {
    const token = await bearer(claims, { expiresIn: 1 });
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ sessionId: 'session-1' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await failureCode(authenticator.authenticate(token))).toBe('AUTH_UNAUTHENTICATED');
  });

  it('keeps the revocation key in one place', async () => {
    const shared = new SessionRevocations(redis);
    await shared.revoke(`${prefix}shared`, 5);
    try {
      await expect(redis.zscore(REVOKED_SESSIONS_KEY, `${prefix}shared`)).resolves.not.toBeNull();
    } finally {
      await redis.zrem(REVOKED_SESSIONS_KEY, `${prefix}shared`);
    }
  });

  it('fails closed with 503 when Redis cannot be reached, before and after a revocation', async () => {
    const down = createAuthRedis(`redis://127.0.0.1:${await closedPort()}`);
    try {
      const unreachable = new SessionRevocations(down, { key: `${prefix}revoked` });
      await unreachable.start(300);
      const blind = new Authenticator(new JwtVerifier(issuer), unreachable);
      const started = Date.now();
      expect(await failureCode(blind.authenticate(await bearer(claims)))).toBe('SERVICE_UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(scaled(3_000));
      expect(await failureCode(new SessionRevocations(down).revoke('session-1', 60))).toBe('SERVICE_UNAVAILABLE');
      // A bad token is still a 401: Redis is only asked about tokens that verified.
      expect(await failureCode(blind.authenticate('Bearer x.y.z'))).toBe('AUTH_UNAUTHENTICATED');
      await unreachable.stop();
    } finally {
      down.disconnect();
    }
  });
});
