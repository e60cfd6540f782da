import { isBreachedPassword } from './breached-passwords.js';

describe('isBreachedPassword (contract §9)', () => {
  it('finds the first, a middle and the last of the listed passwords, whatever their case', () => {
    expect(isBreachedPassword('123456')).toBe(true);
    expect(isBreachedPassword('PASSWORD')).toBe(true);
    expect(isBreachedPassword('CatEye')).toBe(true);
    expect(isBreachedPassword('070162')).toBe(true);
  });

  it('matches whole lines only', () => {
    expect(isBreachedPassword('atey')).toBe(false);
    expect(isBreachedPassword('070162x')).toBe(false);
    expect(isBreachedPassword('')).toBe(false);
    expect(isBreachedPassword('123456\npassword')).toBe(false);
    expect(isBreachedPassword('Quartz-Lantern-47')).toBe(false);
  });
});
