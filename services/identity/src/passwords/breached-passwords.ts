import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Shipped beside src/ and dist/ (see assets/README.md for its origin). */
const LIST_FILE = new URL('../../assets/common-passwords.txt.gz', import.meta.url);

/** Read once, at start-up (first import), lower-cased: the check is case-insensitive. */
const BREACHED = new Set(
  gunzipSync(readFileSync(LIST_FILE))
    .toString('utf8')
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => line.toLowerCase()),
);

/** Contract §9: whether a password is one of the 100,000 most common breached passwords, whatever its case. */
export function isBreachedPassword(password: string): boolean {
  return BREACHED.has(password.toLowerCase());
}
