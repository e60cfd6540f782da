import { randomBytes } from 'node:crypto';
import { validationFailed } from '@school/http';

/** Upload types whose files are public (contract §8): stored under `public/`, never ownership-checked. */
export const PUBLIC_PREFIX = 'public/';
export const PRIVATE_PREFIX = 'uploads/';

// Letters, digits, `.`, `_`, `-` in `/`-separated segments: no backslash, NUL, `%` (so no encoded
// form of anything else), no empty, `.` or `..` segment and no leading `/`.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/**
 * A stored key as a client sent it (already percent-decoded once by the router), checked so that
 * it can never leave the storage root: 400 VALIDATION_FAILED otherwise.
 */
export function storageKey(raw: string): string {
  const segments = raw.split('/');
  const valid = raw.length > 0 && raw.length <= MAX_KEY_LENGTH && segments.every((segment) => SEGMENT.test(segment) && segment !== '..' && segment !== '.');
  if (!valid) throw validationFailed([{ field: 'key', message: 'must be a stored relativePath' }]);
  return raw;
}

export function isPublicKey(key: string): boolean {
  return key.startsWith(PUBLIC_PREFIX);
}

/**
 * The owner named by a private key `uploads/<uploadType>/<userId>/<filename>`; null for a legacy
 * private key without a userId segment (`uploads/<uploadType>/<filename>` or another shape).
 */
export function ownerOfKey(key: string): string | null {
  const segments = key.split('/');
  return segments[0] === 'uploads' && segments.length >= 4 ? (segments[2] ?? null) : null;
}

/** A new random stored file name with the final extension. */
export function randomFilename(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

/** Contract §8: `public/<uploadType>/<filename>` or `uploads/<uploadType>/<userId>/<filename>`. */
export function keyFor(uploadType: string, isPublic: boolean, ownerId: string, filename: string): string {
  return isPublic ? `${PUBLIC_PREFIX}${uploadType}/${filename}` : `${PRIVATE_PREFIX}${uploadType}/${ownerId}/${filename}`;
}
