import { describe, expect, it } from '@jest/globals';
import type { Principal } from './principal.js';
import { VerifiedTokens } from './verified-tokens.js';

const NOW = Date.parse('2026-11-25T00:00:00Z');
const principal = (expiresInMs: number) => ({ expiresAt: new Date(NOW + expiresInMs) }) as Principal;

describe('verified tokens', () => {
  it('keeps a verified token until its exp', () => {
    const tokens = new VerifiedTokens(60_000);
    tokens.set('a', principal(30_000), NOW);
    expect(tokens.get('a', NOW + 29_999)).toBeDefined();
    expect(tokens.get('a', NOW + 30_000)).toBeUndefined();
  });

  it('verifies again once the key could have left the JWKS, though the token has not expired', () => {
    const tokens = new VerifiedTokens(1_000);
    tokens.set('a', principal(900_000), NOW);
    expect(tokens.get('a', NOW + 999)).toBeDefined();
    expect(tokens.get('a', NOW + 1_000)).toBeUndefined();
  });

  it('drops the oldest entry past its bound', () => {
    const tokens = new VerifiedTokens(60_000, 2);
    for (const token of ['a', 'b', 'c']) tokens.set(token, principal(30_000), NOW);
    expect(['a', 'b', 'c'].map((token) => tokens.get(token, NOW) !== undefined)).toEqual([false, true, true]);
  });
});
