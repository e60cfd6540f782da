import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The secrets a credential carries and how they are stored: link tokens are 256 random bits
 * (base64url), stored as their SHA-256 (hex) and found by that hash, so a stored hash can never be
 * used as a link; OTPs are six digits from a CSPRNG, stored as HMAC-SHA256 under OTP_SECRET (a
 * plain hash of a six-digit space would be reversed at once) and compared in constant time.
 */

const LINK_TOKEN_BYTES = 32;
const OTP_SPACE = 1_000_000;

export function newLinkToken(): string {
  return randomBytes(LINK_TOKEN_BYTES).toString('base64url');
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newOtp(): string {
  return randomInt(0, OTP_SPACE).toString().padStart(6, '0');
}

export class OtpHasher {
  constructor(private readonly secret: string) {}

  hash(otp: string): string {
    return createHmac('sha256', this.secret).update(otp, 'utf8').digest('hex');
  }

  /** Constant time in the compared bytes; a missing stored hash still spends the HMAC. */
  matches(otp: string, storedHash: string | null): boolean {
    const presented = Buffer.from(this.hash(otp), 'hex');
    const stored = Buffer.from(storedHash ?? '', 'hex');
    return stored.length === presented.length && timingSafeEqual(presented, stored);
  }
}
