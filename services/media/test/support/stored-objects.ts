import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Client } from 'minio';
import type { TestS3 } from './s3-server.js';

/** What a storage driver holds, read behind the service's back: the tests' view of "nothing stored". */
export interface StoredObjects {
  read(key: string): Promise<Buffer>;
  /** Every key held, sorted. */
  keys(): Promise<string[]>;
}

export function localObjects(directory: string): StoredObjects {
  return {
    read: (key) => readFile(join(directory, key)),
    async keys() {
      const entries = await readdir(directory, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
        .sort();
    },
  };
}

export function s3Objects(s3: TestS3): StoredObjects {
  const url = new URL(s3.endpoint);
  const client = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', pathStyle: true });
  return {
    async read(key) {
      const chunks: Buffer[] = [];
      for await (const chunk of await client.getObject(s3.bucket, key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async keys() {
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(s3.bucket, '', true)) keys.push(String((item as { name: string }).name));
      return keys.sort();
    },
  };
}
