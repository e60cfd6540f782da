import { isPermanentSmtpFailure } from './smtp-errors.js';

describe('isPermanentSmtpFailure (lesson 7)', () => {
  it('treats 5xx replies as final and 4xx replies or connection errors as retryable', () => {
    expect(isPermanentSmtpFailure(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))).toBe(true);
    expect(isPermanentSmtpFailure(Object.assign(new Error('auth failed'), { responseCode: 535 }))).toBe(true);
    expect(isPermanentSmtpFailure(Object.assign(new Error('try later'), { responseCode: 451 }))).toBe(false);
    expect(isPermanentSmtpFailure(Object.assign(new Error('greylisted'), { responseCode: 421 }))).toBe(false);
    expect(isPermanentSmtpFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' }))).toBe(false);
    expect(isPermanentSmtpFailure(undefined)).toBe(false);
  });
});
