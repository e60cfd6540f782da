import { emailOfMfaToken, newMfaToken } from './mfa-token.js';

describe('mfaToken (contract §12)', () => {
  it('names the email of its password step as the login throttle keys it, beside 256 random bits', () => {
    const token = newMfaToken('  Ann.Lee+x@Example.COM ');
    expect(emailOfMfaToken(token)).toBe('ann.lee+x@example.com');
    expect(token.split('.')[1]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newMfaToken('a@example.com')).not.toBe(newMfaToken('a@example.com'));
  });

  it('names no email for anything else', () => {
    for (const value of [undefined, null, 42, '', 'no-dot', '.starts-with-dot', { email: 'a@example.com' }]) expect(emailOfMfaToken(value)).toBe('');
  });
});
