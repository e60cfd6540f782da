import { createHash } from 'node:crypto';
import { validationFailed } from '@school/http';

/** Where a page ends: the last entry's (occurredAt, id); the next page starts just after it. */
export interface AuditPosition {
  occurredAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const POSITION = /^v1:(\d{1,15}):([0-9a-f-]{36})$/;

/**
 * Integrity, not secrecy: a cursor only positions a page within what its holder may read anyway, so a
 * checksum is enough to refuse one that was altered (contract §13: opaque; a tampered one is 400).
 */
function checksum(position: string): string {
  return createHash('sha256').update(`audit-cursor|${position}`).digest('base64url').slice(0, 16);
}

/** The opaque cursor of a position: `<base64url position>.<checksum>`. */
export function encodeCursor(position: AuditPosition): string {
  const text = `v1:${position.occurredAt.getTime()}:${position.id}`;
  return `${Buffer.from(text).toString('base64url')}.${checksum(text)}`;
}

/** The position of a cursor this list gave; anything else (altered, truncated, made up) is 400 VALIDATION_FAILED. */
export function decodeCursor(cursor: string): AuditPosition {
  const [encoded, sum, ...rest] = cursor.split('.');
  const text = encoded && /^[\w-]+$/.test(encoded) ? Buffer.from(encoded, 'base64url').toString() : '';
  const match = POSITION.exec(text);
  // Re-encoding must give the same characters: base64url decoding ignores some altered trailing bits.
  const canonical = encoded === Buffer.from(text).toString('base64url');
  if (rest.length > 0 || !canonical || !match || sum !== checksum(text) || !UUID.test(match[2]!)) {
    throw validationFailed([{ field: 'cursor', message: 'must be a nextCursor of this list, unchanged' }]);
  }
  return { occurredAt: new Date(Number(match[1])), id: match[2]! };
}
