import {
  ACCOUNT_ENTRY_PURPOSES,
  afterFailedAttempt,
  canRedeem,
  type CredentialSnapshot,
  CredentialPurpose,
  expiryOf,
  MAX_OTP_ATTEMPTS,
  mayMessage,
  messageWindowStart,
  retiredOnAccountClosed,
  retiredOnIssue,
  retiredOnRedeem,
  stateOf,
} from './credential-state.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);

function credential(purpose: CredentialPurpose, overrides: Partial<CredentialSnapshot> = {}): CredentialSnapshot {
  return { purpose, expiresAt: later(60_000), redeemedAt: null, retiredAt: null, ...overrides };
}

describe('credential state (spec §3.1)', () => {
  it('is live until it expires, then expired', () => {
    const reset = credential('password_reset');
    expect(stateOf(reset, now)).toBe('live');
    expect(stateOf(reset, later(59_999))).toBe('live');
    expect(stateOf(reset, later(60_000))).toBe('expired');
  });

  it('stays redeemed or retired whatever the clock says', () => {
    expect(stateOf(credential('password_reset', { redeemedAt: now }), now)).toBe('redeemed');
    expect(stateOf(credential('password_reset', { retiredAt: now }), now)).toBe('retired');
    expect(stateOf(credential('password_reset', { redeemedAt: now, expiresAt: now }), later(1))).toBe('redeemed');
    expect(stateOf(credential('password_reset', { retiredAt: now, expiresAt: now }), later(1))).toBe('retired');
  });

  it('lets a link token redeem a reset or an invitation, and nothing else on the reset route', () => {
    expect(canRedeem(credential('password_reset'), 'resetByToken', now)).toBe(true);
    expect(canRedeem(credential('account_invite'), 'resetByToken', now)).toBe(true);
    expect(canRedeem(credential('email_verification'), 'resetByToken', now)).toBe(false);
    expect(canRedeem(credential('phone_verification'), 'resetByToken', now)).toBe(false);
  });

  it('never lets an OTP redeem an invitation (rule 5)', () => {
    expect(canRedeem(credential('password_reset'), 'resetByOtp', now)).toBe(true);
    expect(canRedeem(credential('account_invite'), 'resetByOtp', now)).toBe(false);
  });

  it('keeps verification credentials to their own routes', () => {
    expect(canRedeem(credential('email_verification'), 'emailByToken', now)).toBe(true);
    expect(canRedeem(credential('password_reset'), 'emailByToken', now)).toBe(false);
    expect(canRedeem(credential('phone_verification'), 'phoneByOtp', now)).toBe(true);
    expect(canRedeem(credential('password_reset'), 'phoneByOtp', now)).toBe(false);
  });

  it('refuses anything that is not live', () => {
    expect(canRedeem(credential('password_reset', { redeemedAt: now }), 'resetByToken', now)).toBe(false);
    expect(canRedeem(credential('account_invite', { retiredAt: now }), 'resetByToken', now)).toBe(false);
    expect(canRedeem(credential('password_reset', { expiresAt: now }), 'resetByOtp', now)).toBe(false);
  });

  it('retires the other account-entry credential on redemption (rule 6), only its own kind otherwise', () => {
    expect(retiredOnRedeem('password_reset')).toEqual(ACCOUNT_ENTRY_PURPOSES);
    expect(retiredOnRedeem('account_invite')).toEqual(ACCOUNT_ENTRY_PURPOSES);
    expect(retiredOnRedeem('email_verification')).toEqual(['email_verification']);
    expect(retiredOnRedeem('phone_verification')).toEqual(['phone_verification']);
  });

  it('replaces the earlier reset on a new reset, every account-entry credential on a new invitation', () => {
    expect(retiredOnIssue('password_reset')).toEqual(['password_reset']);
    expect(retiredOnIssue('account_invite')).toEqual(ACCOUNT_ENTRY_PURPOSES);
    expect(retiredOnIssue('email_verification')).toEqual(['email_verification']);
    expect(retiredOnIssue('phone_verification')).toEqual(['phone_verification']);
  });

  it('retires resets and invitations, not verifications, when the account is banned or deleted', () => {
    expect(retiredOnAccountClosed()).toEqual(ACCOUNT_ENTRY_PURPOSES);
  });

  it('retires on the fifth failed attempt', () => {
    expect(MAX_OTP_ATTEMPTS).toBe(5);
    expect(afterFailedAttempt(0)).toEqual({ attempts: 1, retire: false });
    expect(afterFailedAttempt(3)).toEqual({ attempts: 4, retire: false });
    expect(afterFailedAttempt(4)).toEqual({ attempts: 5, retire: true });
  });

  it('expires invitations after 7 days and codes after the OTP lifetime (spec §8)', () => {
    const lifetimes = { otpMinutes: 15, inviteDays: 7, emailVerificationHours: 24 };
    expect(expiryOf('account_invite', now, lifetimes)).toEqual(later(7 * 24 * 3_600_000));
    expect(expiryOf('password_reset', now, lifetimes)).toEqual(later(15 * 60_000));
    expect(expiryOf('phone_verification', now, lifetimes)).toEqual(later(15 * 60_000));
    expect(expiryOf('email_verification', now, lifetimes)).toEqual(later(24 * 3_600_000));
    expect(expiryOf('password_reset', now, { ...lifetimes, otpMinutes: 5 })).toEqual(later(5 * 60_000));
  });

  it('lets five reset or verification messages a sliding hour go to a person (contract §4); invitations and phone codes are not capped', () => {
    expect(mayMessage('password_reset', 4)).toBe(true);
    expect(mayMessage('password_reset', 5)).toBe(false);
    expect(mayMessage('email_verification', 5)).toBe(false);
    expect(mayMessage('account_invite', 50)).toBe(true);
    expect(mayMessage('phone_verification', 50)).toBe(true);
    expect(messageWindowStart(now)).toEqual(later(-3_600_000));
  });
});
