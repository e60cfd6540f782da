import { isPublicKey } from './storage-key.js';
import type { S3Storage } from './s3-storage.js';
import type { UrlSigner } from './url-signer.js';
import type { FileUrlDto } from '@school/contracts';

/** The gateway route serving stored files without a bearer token (contract §8, local driver). */
export const SIGNED_FILES_PATH = '/api/files/signed/';

/** URLs of stored files: signed and expiring for private keys, permanent (expiresAt null) for `public/` ones. */
export interface FileUrls {
  of(key: string, expiresInSeconds: number): Promise<FileUrlDto>;
}

export const FILE_URLS = Symbol('FILE_URLS');

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** Local driver: HMAC-signed gateway URLs under PUBLIC_BASE_URL. */
export class GatewayFileUrls implements FileUrls {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly signer: UrlSigner,
  ) {}

  async of(key: string, expiresInSeconds: number): Promise<FileUrlDto> {
    const base = `${withoutTrailingSlash(this.publicBaseUrl)}${SIGNED_FILES_PATH}${key}`;
    if (isPublicKey(key)) return { url: base, expiresAt: null };
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    return { url: `${base}?expires=${expiresAt}&signature=${this.signer.sign(key, expiresAt)}`, expiresAt };
  }
}

/** S3 driver: the store's presigned GET URLs; public objects under S3_PUBLIC_BASE_URL. */
export class S3FileUrls implements FileUrls {
  constructor(
    private readonly storage: S3Storage,
    private readonly publicBaseUrl: string,
  ) {}

  async of(key: string, expiresInSeconds: number): Promise<FileUrlDto> {
    if (isPublicKey(key)) return { url: `${withoutTrailingSlash(this.publicBaseUrl)}/${key}`, expiresAt: null };
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    return { url: await this.storage.presignedGet(key, expiresInSeconds), expiresAt };
  }
}
