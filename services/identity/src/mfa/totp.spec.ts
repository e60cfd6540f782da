import { Secret, TOTP } from 'otpauth';
import { acceptedStep, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUrlOf, stepOf } from './totp.js';

const STEP_MS = 30_000;
const at = new Date('2026-11-28T10:00:10Z');
const secret = newTotpSecret();
const codeOf = (offset: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at.getTime() + offset * STEP_MS });

describe('TOTP (RFC 6238, contract §12)', () => {
  it('makes 160-bit base32 secrets', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the step before, the current and the next one, and answers which', () => {
    const current = stepOf(at);
    expect([-1, 0, 1].map((offset) => acceptedStep(secret, codeOf(offset), at, null))).toEqual([current - 1, current, current + 1]);
  });

  it('refuses codes two steps away, and anything not six digits', () => {
    for (const offset of [-2, 2]) {
      const code = codeOf(offset);
      if ([-1, 0, 1].some((near) => codeOf(near) === code)) continue;
      expect(acceptedStep(secret, code, at, null)).toBeNull();
    }
    expect(acceptedStep(secret, ` ${codeOf(0)}`, at, null)).toBeNull();
    expect(acceptedStep(secret, 'abcdef', at, null)).toBeNull();
  });

  it('refuses a step at or before the last accepted one (no replay)', () => {
    const current = stepOf(at);
    expect(acceptedStep(secret, codeOf(0), at, current)).toBeNull();
    expect(acceptedStep(secret, codeOf(-1), at, current - 1)).toBeNull();
    expect(acceptedStep(secret, codeOf(1), at, current)).toBe(current + 1);
  });

  it('writes the otpauth URL of the Key URI Format', () => {
    expect(otpauthUrlOf('JBSWY3DPEHPK3PXP', 'School Commerce', 'ann+1@example.com')).toBe(
      'otpauth://totp/School%20Commerce:ann%2B1@example.com?secret=JBSWY3DPEHPK3PXP&issuer=School%20Commerce&algorithm=SHA1&digits=6&period=30',
    );
  });

  it('makes ten distinct recovery codes, read whatever their case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(normalizeRecoveryCode(` ${codes[0]!.toUpperCase().replace('-', ' ')} `)).toBe(codes[0]);
  });
});
