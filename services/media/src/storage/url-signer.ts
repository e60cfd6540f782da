import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_EXPIRES_IN_SECONDS } from '@school/contracts';

/** What a signature grants: reading the file. Part of the signed text so a signature means nothing elsewhere. */
const PURPOSE = 'files.read';

const SIGNATURE = /^[0-9a-f]{64}$/;
const EPOCH_MS = /^\d{1,15}$/;

/** HMAC-SHA256 over purpose, key and expiry (epoch ms) for the local driver's gateway URLs. */
export class UrlSigner {
  constructor(private readonly secret: string) {}

  sign(key: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${PURPOSE}\n${key}\n${expiresAt}`).digest('hex');
  }

  /** True when `signature` is the one of `key` and `expires`, unexpired and within the longest lifetime. */
  verify(key: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !EPOCH_MS.test(expires) || !SIGNATURE.test(signature)) return false;
    const expiresAt = Number(expires);
    if (expiresAt <= now || expiresAt > now + MAX_EXPIRES_IN_SECONDS * 1000) return false;
    return timingSafeEqual(Buffer.from(this.sign(key, expiresAt), 'hex'), Buffer.from(signature, 'hex'));
  }
}
