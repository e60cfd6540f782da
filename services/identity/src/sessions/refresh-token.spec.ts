import { createHash } from 'node:crypto';
import { hashRefreshToken, newRefreshToken } from './refresh-token.js';

describe('refresh tokens', () => {
  it('are 256 random bits in base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newRefreshToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as their SHA-256 in hex', () => {
    const token = newRefreshToken();
    expect(hashRefreshToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashRefreshToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
