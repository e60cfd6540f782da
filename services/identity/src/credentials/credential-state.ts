import { CredentialPurpose } from '../generated/prisma/enums.js';

/**
 * The verification-credential state machine of spec §3.1 (and the same rules for the email and
 * phone verification records), in one place and free of I/O. Services ask it what a credential is,
 * whether a presentation may redeem it, and what a redemption, an issue or a failed code retires.
 */

export { CredentialPurpose };

export type CredentialState = 'live' | 'redeemed' | 'expired' | 'retired';

/** Invitations and resets: the credentials that let a person set a password without one (spec §3.1). */
export const ACCOUNT_ENTRY_PURPOSES: readonly CredentialPurpose[] = [CredentialPurpose.password_reset, CredentialPurpose.account_invite];

/** Spec §8: five failed attempts retire an OTP (the whole credential, link included; contract §4). */
export const MAX_OTP_ATTEMPTS = 5;

/** What decides a credential's state; a subset of the stored row. */
export interface CredentialSnapshot {
  purpose: CredentialPurpose;
  expiresAt: Date;
  redeemedAt: Date | null;
  retiredAt: Date | null;
}

/** Redeemed and retired are final; expiry only matters while neither happened. */
export function stateOf(credential: CredentialSnapshot, now: Date): CredentialState {
  if (credential.redeemedAt) return 'redeemed';
  if (credential.retiredAt) return 'retired';
  if (credential.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'live';
}

/**
 * The four ways a credential is presented, and the purposes each may redeem. Spec §4.2 rule 5: a
 * link token redeems either account-entry purpose; an OTP only password_reset, because invitation
 * emails carry no code and the OTP lookup cannot tell two live records apart.
 */
export const REDEMPTIONS = {
  resetByToken: { presentation: 'token', purposes: ACCOUNT_ENTRY_PURPOSES },
  resetByOtp: { presentation: 'otp', purposes: [CredentialPurpose.password_reset] },
  emailByToken: { presentation: 'token', purposes: [CredentialPurpose.email_verification] },
  phoneByOtp: { presentation: 'otp', purposes: [CredentialPurpose.phone_verification] },
} as const satisfies Record<string, { presentation: 'token' | 'otp'; purposes: readonly CredentialPurpose[] }>;

export type Redemption = keyof typeof REDEMPTIONS;

export function redeemsPurpose(redemption: Redemption, purpose: CredentialPurpose): boolean {
  const purposes: readonly CredentialPurpose[] = REDEMPTIONS[redemption].purposes;
  return purposes.includes(purpose);
}

/** Whether this presentation may redeem this credential now (anything else is AUTH_VERIFICATION_CODE_INVALID). */
export function canRedeem(credential: CredentialSnapshot, redemption: Redemption, now: Date): boolean {
  return redeemsPurpose(redemption, credential.purpose) && stateOf(credential, now) === 'live';
}

/** The purposes of the same person's live credentials that redeeming one of `purpose` retires (spec §3.1, rule 6). */
export function retiredOnRedeem(purpose: CredentialPurpose): readonly CredentialPurpose[] {
  return ACCOUNT_ENTRY_PURPOSES.includes(purpose) ? ACCOUNT_ENTRY_PURPOSES : [purpose];
}

/**
 * The purposes of the same person's live credentials that issuing one of `purpose` retires: a new
 * reset replaces the earlier reset (contract §4) but leaves a pending invitation alone (either may
 * still be redeemed, and redeeming one retires the other); a new invitation replaces every
 * account-entry credential; a new verification replaces the earlier one of its kind.
 */
export function retiredOnIssue(purpose: CredentialPurpose): readonly CredentialPurpose[] {
  return purpose === CredentialPurpose.account_invite ? ACCOUNT_ENTRY_PURPOSES : [purpose];
}

/**
 * The purposes of a person's live credentials that banning or soft-deleting the account retires
 * (contract §4): no reset link or invitation issued before survives, not even an unban.
 */
export function retiredOnAccountClosed(): readonly CredentialPurpose[] {
  return ACCOUNT_ENTRY_PURPOSES;
}

/** After one more wrong code: the attempts to store and whether the credential is now retired. */
export function afterFailedAttempt(attemptsSoFar: number): { attempts: number; retire: boolean } {
  const attempts = attemptsSoFar + 1;
  return { attempts, retire: attempts >= MAX_OTP_ATTEMPTS };
}

/**
 * Contract §4: at most five reset or verification messages requested through the public routes
 * (forgot, email-verification resend) go to one account per hour; invitations and phone
 * verification (an authenticated route) do not count. Each such message is one credential of these
 * purposes, so the credentials issued in the last hour are the count.
 */
export const MESSAGE_CAP = {
  messages: 5,
  windowMs: 60 * 60_000,
  purposes: [CredentialPurpose.password_reset, CredentialPurpose.email_verification],
} as const satisfies { messages: number; windowMs: number; purposes: readonly CredentialPurpose[] };

/** Whether one more message of `purpose` may go to a person who was sent `sentInWindow` within the window. */
export function mayMessage(purpose: CredentialPurpose, sentInWindow: number): boolean {
  const counted: readonly CredentialPurpose[] = MESSAGE_CAP.purposes;
  return !counted.includes(purpose) || sentInWindow < MESSAGE_CAP.messages;
}

/** The start of the cap's window ending at `now`. */
export function messageWindowStart(now: Date): Date {
  return new Date(now.getTime() - MESSAGE_CAP.windowMs);
}

export interface CredentialLifetimes {
  /** OTP_TTL_MINUTES (spec §8: 15 minutes by default): password resets and phone codes. */
  otpMinutes: number;
  /** INVITE_TTL_DAYS (spec §8: 7 days). */
  inviteDays: number;
  /** EMAIL_VERIFICATION_TTL_HOURS (24 hours by default). */
  emailVerificationHours: number;
}

const MINUTE_MS = 60_000;

export function lifetimeMs(purpose: CredentialPurpose, lifetimes: CredentialLifetimes): number {
  switch (purpose) {
    case CredentialPurpose.account_invite:
      return lifetimes.inviteDays * 24 * 60 * MINUTE_MS;
    case CredentialPurpose.email_verification:
      return lifetimes.emailVerificationHours * 60 * MINUTE_MS;
    case CredentialPurpose.password_reset:
    case CredentialPurpose.phone_verification:
      return lifetimes.otpMinutes * MINUTE_MS;
  }
}

export function expiryOf(purpose: CredentialPurpose, issuedAt: Date, lifetimes: CredentialLifetimes): Date {
  return new Date(issuedAt.getTime() + lifetimeMs(purpose, lifetimes));
}
