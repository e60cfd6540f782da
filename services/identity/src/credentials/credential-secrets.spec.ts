import { hashLinkToken, newLinkToken, newOtp, OtpHasher } from './credential-secrets.js';

describe('credential secrets', () => {
  it('makes 256-bit base64url link tokens stored as SHA-256 hex', () => {
    const token = newLinkToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newLinkToken()).not.toBe(token);
    expect(hashLinkToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLinkToken(token)).toBe(hashLinkToken(token));
  });

  it('makes six-digit codes, leading zeros kept', () => {
    const codes = Array.from({ length: 2_000 }, newOtp);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1_900);
  });

  it('stores codes as an HMAC under the secret and compares them', () => {
    const hasher = new OtpHasher('a-secret-of-at-least-thirty-two-characters');
    const stored = hasher.hash('012345');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toBe(new OtpHasher('another-secret-of-thirty-two-characters!').hash('012345'));
    expect(hasher.matches('012345', stored)).toBe(true);
    expect(hasher.matches('012346', stored)).toBe(false);
    expect(hasher.matches('012345', null)).toBe(false);
    expect(hasher.matches('012345', 'abc')).toBe(false);
  });
});
