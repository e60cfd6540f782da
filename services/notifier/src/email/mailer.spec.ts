import { smtpTimeouts } from './mailer.js';

describe('smtpTimeouts (lesson 7: nodemailer gives up before the job lock runs out)', () => {
  it('are the 5, 10, 10 and 20 s of the default 60 s lock, and three quarters of any lock in all', () => {
    expect(smtpTimeouts(60_000)).toEqual({ dnsTimeout: 5_000, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    for (const lockMs of [4_000, 20_000, 600_000]) {
      const sum = Object.values(smtpTimeouts(lockMs)).reduce((total, ms) => total + ms, 0);
      expect(sum).toBeCloseTo(0.75 * lockMs);
    }
  });
});
