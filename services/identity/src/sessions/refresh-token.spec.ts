import { hashRefreshToken, newRefreshToken } from './refresh-token.js';

describe('refresh tokens', () => {
  it('carry 256 random bits, URL-safe', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newRefreshToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are found again by their stored hash, which never holds the token', () => {
    const token = newRefreshToken();
    const stored = hashRefreshToken(token);
    expect(hashRefreshToken(token)).toBe(stored);
    expect(stored).not.toContain(token);
    expect(hashRefreshToken(newRefreshToken())).not.toBe(stored);
  });

  it('are told apart by their hash even when they differ in one character', () => {
    const token = newRefreshToken();
    const neighbour = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(hashRefreshToken(neighbour)).not.toBe(hashRefreshToken(token));
  });
});
