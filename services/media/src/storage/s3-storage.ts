import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { ByteRange, ObjectInfo, Storage, StoredObject } from './storage.js';

export interface S3Options {
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
}

const NOT_FOUND_CODES = new Set(['NotFound', 'NoSuchKey', 'NoSuchObject']);

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NOT_FOUND_CODES.has(String((error as { code?: unknown }).code));
}

/** An S3-protocol client (minio) for one bucket, path-style, from an endpoint URL. */
export function s3Client(options: S3Options): Client {
  const url = new URL(options.endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    region: options.region,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    pathStyle: true,
  });
}

/** Objects in one S3 bucket; a PUT either stores the whole object or nothing. */
export class S3Storage implements Storage {
  constructor(
    private readonly client: Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Readable, contentType: string, size?: number): Promise<{ size: number }> {
    await this.client.putObject(this.bucket, key, body, size, { 'Content-Type': contentType });
    const stored = await this.client.statObject(this.bucket, key);
    return { size: stored.size };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const stored = await this.client.statObject(this.bucket, key);
      const contentType: unknown = stored.metaData['content-type'];
      return { size: stored.size, contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const info = await this.stat(key);
    if (!info) return null;
    const stream = range ? await this.client.getPartialObject(this.bucket, key, range.start, range.end - range.start + 1) : await this.client.getObject(this.bucket, key);
    return { ...info, stream };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  /** A presigned GET of the store itself, valid `expiresInSeconds`. */
  presignedGet(key: string, expiresInSeconds: number): Promise<string> {
    return this.client.presignedGetObject(this.bucket, key, expiresInSeconds);
  }
}
