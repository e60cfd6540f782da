import { strongPassword } from './password-policy.js';

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
