import { createHash } from 'node:crypto';
import { normalizeEmail } from '@school/contracts';

/**
 * SHA-256 (lower-case hex) of an email address as the services store it (trimmed, lower-cased):
 * what a table or an event holds where it must find an address without keeping it (identity's login
 * failures, the erasure event feedback matches guest submissions with).
 */
export function emailDigest(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}
