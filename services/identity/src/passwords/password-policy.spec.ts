import { strongPassword } from '@school/contracts';
import { newPassword } from './password-policy.js';

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
});
