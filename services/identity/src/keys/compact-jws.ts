import { sign, type KeyObject } from 'node:crypto';
import type { AccessTokenAlgorithm } from '@school/auth';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Signs JWTs (RFC 7519 compact JWS) on the calling thread. An Ed25519 or P-256 signature takes tens
 * of microseconds; WebCrypto (which jose signs with) would queue it on libuv's thread pool, behind
 * the argon2id verifications that fill that pool during a burst of logins. jose verifies them.
 */
export class CompactJwsSigner {
  private readonly encodedHeader: string;

  constructor(
    private readonly key: KeyObject,
    private readonly algorithm: AccessTokenAlgorithm,
    kid: string,
  ) {
    this.encodedHeader = encode({ alg: algorithm, kid, typ: 'JWT' });
  }

  sign(payload: Record<string, unknown>): string {
    const signingInput = `${this.encodedHeader}.${encode(payload)}`;
    const signature =
      this.algorithm === 'EdDSA'
        ? sign(null, Buffer.from(signingInput), this.key)
        : // JWS wants the raw r || s pair (RFC 7518 §3.4), not DER.
          sign('sha256', Buffer.from(signingInput), { key: this.key, dsaEncoding: 'ieee-p1363' });
    return `${signingInput}.${signature.toString('base64url')}`;
  }
}
