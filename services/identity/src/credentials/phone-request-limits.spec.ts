import { PHONE_REQUEST_LIMITS, phoneRequestWait } from './phone-request-limits.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

describe('phoneRequestWait (contract §9)', () => {
  it('allows a first request', () => {
    expect(phoneRequestWait([], [], NOW)).toBe(0);
  });

  it('keeps one minute between two requests of an account', () => {
    expect(phoneRequestWait([ago(20_000)], [], NOW)).toBe(40_000);
    expect(phoneRequestWait([ago(MINUTE)], [], NOW)).toBe(0);
  });

  it('allows 10 requests a day per account', () => {
    const tenToday = Array.from({ length: PHONE_REQUEST_LIMITS.accountPerDay }, (_, i) => ago((i + 2) * 60 * MINUTE));
    expect(phoneRequestWait(tenToday, [], NOW)).toBe(24 * 60 * MINUTE - 11 * 60 * MINUTE);
    expect(phoneRequestWait(tenToday.slice(1), [], NOW)).toBe(0);
  });

  it('allows 5 requests an hour per number, whoever asks', () => {
    const five = Array.from({ length: PHONE_REQUEST_LIMITS.numberPerHour }, (_, i) => ago((i + 2) * MINUTE));
    expect(phoneRequestWait([], five, NOW)).toBe(60 * MINUTE - 6 * MINUTE);
    expect(phoneRequestWait([], five.slice(1), NOW)).toBe(0);
  });
});
