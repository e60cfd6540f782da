import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A private temporary folder for one upload's bytes while they are checked; removed by `dispose`. */
export class Spool {
  private constructor(readonly dir: string) {}

  static async create(): Promise<Spool> {
    return new Spool(await mkdtemp(join(tmpdir(), 'media-upload-')));
  }

  path(suffix: string): string {
    return join(this.dir, `${randomBytes(6).toString('hex')}${suffix}`);
  }

  /** Streams `source` to a file of the spool (never whole in memory); rejects with the stream's error. */
  async write(source: Readable): Promise<string> {
    const path = this.path('.upload');
    await pipeline(source, createWriteStream(path, { flags: 'wx' }));
    return path;
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
