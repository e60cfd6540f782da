import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Shipped beside src/ and dist/ (see assets/README.md for its origin). */
const LIST_FILE = new URL('../../assets/common-passwords.txt.gz', import.meta.url);

/**
 * Read once, at start-up (first import), lower-cased (the check is case-insensitive), one password
 * between two newlines. Searching the 800 KB text costs under half a millisecond, beside a check's
 * argon2id hash; a Set of the 100,000 strings cost 240 ms of CPU at every start and some 8 MB.
 */
const BREACHED = `\n${gunzipSync(readFileSync(LIST_FILE)).toString('utf8').replace(/\r/g, '').toLowerCase()}\n`;

/** Contract §9: whether a password is one of the 100,000 most common breached passwords, whatever its case. */
export function isBreachedPassword(password: string): boolean {
  const candidate = password.toLowerCase();
  // A newline would let a candidate span two listed lines.
  return candidate.length > 0 && !/[\r\n]/.test(candidate) && BREACHED.includes(`\n${candidate}\n`);
}
