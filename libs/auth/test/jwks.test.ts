import { closedPort, createTestIssuer, type TestIssuer } from '@school/testing';
import { JwtVerifier } from '@school/auth';
import { failureCode } from './helpers.js';

const claims = { sub: 'user-1', sid: 'session-1', role: 'staff' };

describe('JwtVerifier and the JWKS', () => {
  let issuer: TestIssuer;

  beforeEach(async () => {
    issuer = await createTestIssuer({ issuer: 'https://identity.test', audience: 'school-test' });
  });

  afterEach(async () => {
    await issuer.close();
  });

  it('fetches the JWKS once and caches it', async () => {
    const verifier = new JwtVerifier(issuer);
    for (let i = 0; i < 5; i += 1) await expect(verifier.verify(await issuer.sign(claims))).resolves.toMatchObject({ role: 'staff' });
    expect(issuer.jwksRequests).toBe(1);
  });

  it('picks up a rotated key (new kid) with one refetch', async () => {
    const verifier = new JwtVerifier({ ...issuer, jwksCooldownMs: 0 });
    const before = await issuer.sign(claims);
    await verifier.verify(before);
    const oldKid = issuer.kid;

    const newKid = await issuer.rotate();
    expect(newKid).not.toBe(oldKid);
    await expect(verifier.verify(await issuer.sign(claims))).resolves.toMatchObject({ userId: 'user-1' });
    expect(issuer.jwksRequests).toBe(2);
    // The previous key is still published, so tokens issued before the rotation keep working.
    await expect(verifier.verify(before)).resolves.toMatchObject({ userId: 'user-1' });

    await issuer.rotate({ retirePrevious: true });
    await verifier.verify(await issuer.sign(claims));
    expect(issuer.jwksRequests).toBe(3);
  });

  it('stops accepting a key that left the JWKS once its cached copy is older than jwksCacheMaxAgeMs (key retirement)', async () => {
    const verifier = new JwtVerifier({ ...issuer, jwksCacheMaxAgeMs: 200 });
    const old = await issuer.sign(claims);
    await verifier.verify(old);
    await issuer.rotate({ retirePrevious: true });
    await expect(verifier.verify(old)).resolves.toMatchObject({ userId: 'user-1' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await failureCode(verifier.verify(old))).toBe('AUTH_UNAUTHENTICATED');
    await expect(verifier.verify(await issuer.sign(claims))).resolves.toMatchObject({ userId: 'user-1' });
    expect(issuer.jwksRequests).toBe(2);
  });

  it('does not refetch for unknown kids during the cooldown', async () => {
    const verifier = new JwtVerifier(issuer);
    await verifier.verify(await issuer.sign(claims));
    for (let i = 0; i < 5; i += 1) {
      expect(await failureCode(verifier.verify(await issuer.sign(claims, { kid: `made-up-${i}` })))).toBe('AUTH_UNAUTHENTICATED');
    }
    expect(issuer.jwksRequests).toBe(1);
  });

  it('answers 503 SERVICE_UNAVAILABLE when the JWKS cannot be reached', async () => {
    const unreachable = new JwtVerifier({ ...issuer, jwksUrl: `http://127.0.0.1:${await closedPort()}/.well-known/jwks.json` });
    expect(await failureCode(unreachable.verify(await issuer.sign(claims)))).toBe('SERVICE_UNAVAILABLE');

    issuer.setAvailable(false);
    const failing = new JwtVerifier(issuer);
    expect(await failureCode(failing.verify(await issuer.sign(claims)))).toBe('SERVICE_UNAVAILABLE');
    // Checks that need no key still answer 401: a malformed or alg-none token is invalid whatever the JWKS says.
    expect(await failureCode(failing.verify('garbage'))).toBe('AUTH_UNAUTHENTICATED');
    expect(await failureCode(failing.verify(await issuer.sign(claims, { alg: 'none' })))).toBe('AUTH_UNAUTHENTICATED');
  });

  it('answers 503 when the JWKS endpoint times out', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const verifier = new JwtVerifier({ ...issuer, jwksUrl: `http://127.0.0.1:${port}/jwks.json`, jwksTimeoutMs: 200 });
      expect(await failureCode(verifier.verify(await issuer.sign(claims)))).toBe('SERVICE_UNAVAILABLE');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('keeps verifying known keys from a stale cache while the JWKS is down', async () => {
    const verifier = new JwtVerifier({ ...issuer, jwksCacheMaxAgeMs: 50, jwksCooldownMs: 0 });
    await verifier.verify(await issuer.sign(claims));
    issuer.setAvailable(false);
    await new Promise((resolve) => setTimeout(resolve, 80));

    await expect(verifier.verify(await issuer.sign(claims))).resolves.toMatchObject({ sessionId: 'session-1' });
    expect(issuer.jwksRequests).toBeGreaterThanOrEqual(2);
    await issuer.rotate();
    expect(await failureCode(verifier.verify(await issuer.sign(claims)))).toBe('SERVICE_UNAVAILABLE');

    issuer.setAvailable(true);
    await expect(verifier.verify(await issuer.sign(claims))).resolves.toMatchObject({ sessionId: 'session-1' });
  });

  it('accepts only asymmetric algorithms', () => {
    expect(() => new JwtVerifier({ ...issuer, algorithms: ['HS256'] })).toThrow(TypeError);
    expect(() => new JwtVerifier({ ...issuer, algorithms: ['EdDSA', 'none'] })).toThrow(TypeError);
    expect(() => new JwtVerifier({ ...issuer, algorithms: [] })).toThrow(TypeError);
  });

  it('honours a narrower algorithm list', async () => {
    const eddsaOnly = new JwtVerifier({ ...issuer, algorithms: ['EdDSA'] });
    expect(await failureCode(eddsaOnly.verify(await issuer.sign(claims, { alg: 'ES256' })))).toBe('AUTH_UNAUTHENTICATED');
    await expect(eddsaOnly.verify(await issuer.sign(claims))).resolves.toMatchObject({ role: 'staff' });
  });
});
