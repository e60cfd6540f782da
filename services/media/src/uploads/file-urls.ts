import { isPublicKey } from '../storage/storage-key.js';
import { DEFAULT_EXPIRES_IN_SECONDS, UrlSigner } from '../storage/url-signer.js';
import type { FileUrlDto } from './dto/upload-result.dto.js';

/** The gateway route serving stored files without a bearer token (contract §8, local driver). */
export const SIGNED_FILES_PATH = '/api/files/signed/';

/** URLs of stored files on the local driver: HMAC-signed gateway URLs, permanent for `public/` keys. */
export class FileUrls {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly signer: UrlSigner,
  ) {}

  of(key: string, expiresInSeconds = DEFAULT_EXPIRES_IN_SECONDS, now = Date.now()): FileUrlDto {
    const base = `${this.publicBaseUrl.replace(/\/+$/, '')}${SIGNED_FILES_PATH}${key}`;
    if (isPublicKey(key)) return { url: base, expiresAt: null };
    const expiresAt = now + expiresInSeconds * 1000;
    return { url: `${base}?expires=${expiresAt}&signature=${this.signer.sign(key, expiresAt)}`, expiresAt };
  }

  verify(key: string, expires: unknown, signature: unknown): boolean {
    return this.signer.verify(key, expires, signature);
  }
}
