import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** Contract §12: RFC 6238 with SHA-1, 6 digits and 30-second steps; the step before and after are accepted. */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW = 1;
const SECRET_BYTES = 20;

const SIX_DIGITS = /^\d{6}$/;

function totpOf(secret: string): TOTP {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new secret: 160 random bits, in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/**
 * `otpauth://totp/<issuer>:<email>?secret=...&issuer=...` (contract §12; the Key URI Format that
 * authenticator apps scan), the email readable in the label (`@` needs no escape in a path), and the
 * parameters the apps assume by default spelled out.
 */
export function otpauthUrlOf(secret: string, issuer: string, email: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(email).replace(/%40/g, '@')}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${TOTP_PERIOD_SECONDS}`;
}

/** The step (30-second period since the epoch) of `at`. */
export function stepOf(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The step whose code `code` is, within one step of `at`'s, and after `lastStep` (contract §12: a
 * code of a step at or before the last accepted one is refused); null when none.
 */
export function acceptedStep(secret: string, code: string, at: Date, lastStep: number | null): number | null {
  if (!SIX_DIGITS.test(code)) return null;
  const totp = totpOf(secret);
  const current = stepOf(at);
  for (let delta = -TOTP_WINDOW; delta <= TOTP_WINDOW; delta += 1) {
    const step = current + delta;
    if (lastStep !== null && step <= lastStep) continue;
    if (totp.validate({ token: code, timestamp: step * TOTP_PERIOD_SECONDS * 1000, window: 0 }) === 0) return step;
  }
  return null;
}

/** Whether `code` is shaped as a TOTP code (six digits); anything else is tried as a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return SIX_DIGITS.test(code);
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten recovery codes, `xxxxx-xxxxx` from a 31-letter alphabet without look-alikes (about 50 bits each). */
export function newRecoveryCodes(): string[] {
  const half = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${half()}-${half()}`);
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
}
