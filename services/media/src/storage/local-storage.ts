import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, ObjectInfo, Storage, StoredObject } from './storage.js';

const TYPE_SUFFIX = '.content-type';

/**
 * Files under STORAGE_DIR, one file per key plus a sidecar holding its content type. A put writes
 * a temporary file and renames it into place, so a failed write never leaves a partial object.
 */
export class LocalStorage implements Storage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, body: Readable, contentType: string): Promise<{ size: number }> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await writeFile(`${path}${TYPE_SUFFIX}`, contentType);
      await rename(partial, path);
      return { size: (await stat(path)).size };
    } catch (error) {
      await rm(partial, { force: true });
      await rm(`${path}${TYPE_SUFFIX}`, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    const size = await stat(path).then(
      (stats) => (stats.isFile() ? stats.size : null),
      () => null,
    );
    if (size === null) return null;
    const contentType = await readFile(`${path}${TYPE_SUFFIX}`, 'utf8').catch(() => 'application/octet-stream');
    return { size, contentType };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const info = await this.stat(key);
    if (!info) return null;
    return { ...info, stream: createReadStream(this.pathOf(key), range ?? {}) };
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      (stats) => stats.isFile(),
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await rm(`${path}${TYPE_SUFFIX}`, { force: true });
  }

  /** Keys were validated by storageKey(); this is the last line against leaving the root. */
  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error('storage key escapes the storage root');
    return path;
  }
}
