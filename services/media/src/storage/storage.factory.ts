import { randomBytes } from 'node:crypto';
import { type FileUrls, GatewayFileUrls, S3FileUrls } from './file-urls.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage, s3Client } from './s3-storage.js';
import type { InstallationSecretsRepository } from './installation-secrets.repository.js';
import type { Storage } from './storage.js';
import type { StorageConfig } from './storage.config.js';
import { UrlSigner } from './url-signer.js';

export interface StorageWiring {
  storage: Storage;
  urls: FileUrls;
  signer: UrlSigner;
}

const SIGNED_URL_SECRET = 'SIGNED_URL_SECRET';

/** SIGNED_URL_SECRET, or unset (never in production: signedUrlSecretRequiredInProduction) the installation's own, generated once. */
export async function signedUrlSecretOf(config: StorageConfig, secrets: InstallationSecretsRepository): Promise<string> {
  return config.SIGNED_URL_SECRET ?? (await secrets.keepFirst(SIGNED_URL_SECRET, randomBytes(32).toString('base64url')));
}

/** The configured driver and the URLs that go with it (config already passed s3SettingsRequired). */
export function storageOf(config: StorageConfig, signedUrlSecret: string): StorageWiring {
  const signer = new UrlSigner(signedUrlSecret);
  if (config.STORAGE_DRIVER === 's3') {
    const endpoint = config.S3_ENDPOINT ?? '';
    const bucket = config.S3_BUCKET ?? '';
    const storage = new S3Storage(s3Client({ endpoint, region: config.S3_REGION, bucket, accessKey: config.S3_ACCESS_KEY ?? '', secretKey: config.S3_SECRET_KEY ?? '' }), bucket);
    return { storage, urls: new S3FileUrls(storage, config.S3_PUBLIC_BASE_URL ?? `${endpoint.replace(/\/+$/, '')}/${bucket}`), signer };
  }
  return { storage: new LocalStorage(config.STORAGE_DIR), urls: new GatewayFileUrls(config.PUBLIC_BASE_URL, signer), signer };
}
