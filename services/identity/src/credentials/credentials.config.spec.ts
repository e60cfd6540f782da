import { parseConfig, SERVICES, serviceEnv } from '@school/config';
import { credentialsEnv, credentialsOptionsOf, newOtpSecret } from './credentials.config.js';

/** The credentials' variables as identity's configuration reads them (src/config.ts). */
const configOf = (env: Record<string, string>) => parseConfig(serviceEnv(SERVICES.identity.port, credentialsEnv), env);

describe('credentials configuration', () => {
  it('defaults to the lifetimes of spec §8 and the kept generated secret when OTP_SECRET is unset', () => {
    expect(credentialsOptionsOf(configOf({}), 'kept-secret')).toEqual({
      otpSecret: 'kept-secret',
      lifetimes: { otpMinutes: 15, inviteDays: 7, emailVerificationHours: 24 },
      publicBaseUrl: 'http://localhost:3000',
      messageRequestsIntervalMs: 1_000,
    });
  });

  it('takes MESSAGE_REQUESTS_INTERVAL_MS', () => {
    expect(credentialsOptionsOf(configOf({ MESSAGE_REQUESTS_INTERVAL_MS: '250' }), 'kept-secret').messageRequestsIntervalMs).toBe(250);
  });

  it('takes OTP_TTL_MINUTES, INVITE_TTL_DAYS and EMAIL_VERIFICATION_TTL_HOURS', () => {
    const options = credentialsOptionsOf(configOf({ OTP_TTL_MINUTES: '5', INVITE_TTL_DAYS: '3', EMAIL_VERIFICATION_TTL_HOURS: '48' }), 'kept-secret');
    expect(options.lifetimes).toEqual({ otpMinutes: 5, inviteDays: 3, emailVerificationHours: 48 });
  });

  it('refuses a short secret and a zero lifetime in one line', () => {
    expect(() => configOf({ OTP_SECRET: 'short' })).toThrow(/^Invalid configuration: OTP_SECRET: /);
    expect(() => configOf({ OTP_TTL_MINUTES: '0' })).toThrow(/^Invalid configuration: OTP_TTL_MINUTES: /);
  });

  it('prefers OTP_SECRET, and generates 256 random bits, different each time, when a secret must be made', () => {
    const secret = 'a-secret-of-my-own-of-at-least-32-characters';
    expect(credentialsOptionsOf(configOf({ OTP_SECRET: secret }), 'kept-secret').otpSecret).toBe(secret);
    expect(newOtpSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newOtpSecret()).not.toBe(newOtpSecret());
  });
});
