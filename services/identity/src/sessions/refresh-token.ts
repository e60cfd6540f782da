import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url (43 characters). */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored: SHA-256 (hex) suffices for a 256-bit random secret; lookups are by this hash. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
