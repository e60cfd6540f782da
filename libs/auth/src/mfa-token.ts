import { randomBytes } from 'node:crypto';

/**
 * The mfaToken of contract §12 names the email of its password step, so that the gateway counts
 * the second step in that step's throttle buckets (ip + email) without asking identity:
 * `<base64url(email)>.<256 random bits>`. Only its holder sees it, who typed the email; identity
 * stores its hash, so a token whose email part was changed names no sign-in.
 */
export function newMfaToken(email: string): string {
  return `${Buffer.from(mfaThrottleEmail(email), 'utf8').toString('base64url')}.${randomBytes(32).toString('base64url')}`;
}

/** The email an mfaToken names, as the login throttle keys it (trimmed, lower case); empty when it names none. */
export function emailOfMfaToken(token: unknown): string {
  if (typeof token !== 'string') return '';
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 512) return '';
  return mfaThrottleEmail(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
}

function mfaThrottleEmail(email: string): string {
  return email.trim().toLowerCase();
}
