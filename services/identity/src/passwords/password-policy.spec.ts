import { strongPassword } from '@school/contracts';
import { BREACHED_PASSWORD_MESSAGE, GUESSABLE_PASSWORD_MESSAGE, newPassword } from './password-policy.js';

describe('strong password rule', () => {
  it.each(['Admin123!', 'aB3$efgh', `Aa1!${'x'.repeat(28)}`])('accepts %s', (password) => {
    expect(strongPassword.safeParse(password).success).toBe(true);
  });

  it.each([
    ['too short', 'Ab1!xyz'],
    ['too long', `Aa1!${'x'.repeat(29)}`],
    ['no upper case', 'admin123!'],
    ['no lower case', 'ADMIN123!'],
    ['no digit', 'Adminxyz!'],
    ['no symbol', 'Admin1234'],
  ])('refuses a password with %s', (_, password) => {
    expect(strongPassword.safeParse(password).success).toBe(false);
  });
});

describe('newPassword (contract §9)', () => {
  it('refuses a strong password found in the breached list, whatever its case, and accepts one that is not', () => {
    expect(newPassword.safeParse('P@ssw0rd').success).toBe(false);
    expect(newPassword.safeParse('P@SSw0rd').success).toBe(false);
    expect(newPassword.safeParse('Quartz-Lantern-47').success).toBe(true);
  });

  function messagesOf(password: string): string[] {
    return newPassword.safeParse(password).error?.issues.map((issue) => issue.message) ?? [];
  }

  it.each(['Password1!', 'Welcome2024!', 'Admin123!', 'Summer2026!', 'Michael1985!', 'Qwerty123!'])(
    'refuses %s, which the composition rule and the list let through, as too easy to guess',
    (password) => {
      expect(strongPassword.safeParse(password).success).toBe(true);
      expect(messagesOf(password)).toEqual([GUESSABLE_PASSWORD_MESSAGE]);
    },
  );

  it('names one reason: a listed password is too common, not also too easy to guess', () => {
    expect(messagesOf('P@ssw0rd')).toEqual([BREACHED_PASSWORD_MESSAGE]);
  });

  it('runs the estimator only on what nothing else refused, so never on a long string', () => {
    expect(messagesOf('password')).toEqual(['must contain an upper-case letter', 'must contain a digit', 'must contain a symbol', BREACHED_PASSWORD_MESSAGE]);
    expect(messagesOf(`Aa1!${'x'.repeat(100_000)}`)).toEqual(['must be at most 32 characters']);
  });

  it.each(['Quartz-Lantern-47', 'N3w-Passw0rd!', 'Correct-h0rse', 'Wrong!pass1'])('accepts %s', (password) => {
    expect(messagesOf(password)).toEqual([]);
  });
});
