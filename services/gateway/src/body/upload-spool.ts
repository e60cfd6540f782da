import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, validationFailed } from '@school/http';

/** An upload body received whole and kept on disk until its answer is sent. */
export interface SpooledBody {
  size: number;
  /** The body to send upstream; once. */
  open(): ReadStream;
  /** Closes what `open` opened and deletes the file. */
  discard(): void;
}

export interface SpoolLimits {
  maxBytes: number;
  /** No byte for this long: 408 REQUEST_TIMEOUT (contract §9). */
  idleTimeoutMs: number;
}

/**
 * Upload bodies are written to a directory of this process before anything is sent upstream, so a
 * client trickling its body holds a file and its own socket, never a connection to media (contract
 * §9: slow uploads never delay other requests).
 */
export class UploadSpool {
  private constructor(private readonly dir: string) {}

  static async create(parent = tmpdir()): Promise<UploadSpool> {
    return new UploadSpool(await mkdtemp(join(parent, 'gateway-uploads-')));
  }

  /**
   * Reads `body` to its end into a file. Fails with 413 UPLOAD_TOO_LARGE past `maxBytes`, 408
   * REQUEST_TIMEOUT after `idleTimeoutMs` without a byte, 400 when the client goes away; in each
   * case the file is gone and `body` is left paused, unread, for the answer to close the connection.
   */
  receive(body: Readable, limits: SpoolLimits): Promise<SpooledBody> {
    // Dropped while the hooks before the parser ran: no event of it is left to wait for.
    if (body.destroyed) return Promise.reject(endedEarly());
    const path = join(this.dir, randomUUID());
    const file = createWriteStream(path, { flags: 'wx' });
    let size = 0;
    let settled = false;
    return new Promise((resolve, reject) => {
      let idle = setTimeout(() => fail(closing('REQUEST_TIMEOUT')), limits.idleTimeoutMs);
      const stop = () => {
        clearTimeout(idle);
        body.off('data', onData);
        body.off('end', onEnd);
        body.off('error', onAbort);
        body.off('close', onAbort);
        file.off('drain', onDrain);
      };
      const fail = (error: AppError) => {
        if (settled) return;
        settled = true;
        stop();
        body.pause();
        // The write stream's own errors are the reason we are here or no longer matter.
        file.on('error', () => {});
        // Only once closed: a file still being opened would appear after an earlier unlink.
        file.once('close', () => discard(path));
        file.destroy();
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) return fail(closing('UPLOAD_TOO_LARGE'));
        idle.refresh();
        if (!file.write(chunk)) body.pause();
      };
      const onDrain = () => body.resume();
      const onAbort = () => fail(endedEarly());
      const onEnd = () => {
        stop();
        file.end(() => {
          if (settled) return;
          settled = true;
          resolve(spooled(path, size));
        });
      };
      idle = idle.unref();
      file.once('error', (error) => fail(new AppError('SERVICE_UNAVAILABLE', undefined, { cause: error, headers: { 'retry-after': '5' } })));
      file.on('drain', onDrain);
      body.on('data', onData);
      body.once('end', onEnd);
      body.once('error', onAbort);
      body.once('close', onAbort);
    });
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

function spooled(path: string, size: number): SpooledBody {
  let stream: ReadStream | undefined;
  return {
    size,
    open: () => {
      stream = createReadStream(path);
      return stream;
    },
    discard: () => {
      // The upstream request has its own error listener; one that never read must not leak its file handle.
      stream?.destroy();
      discard(path);
    },
  };
}

function discard(path: string): void {
  unlink(path).catch(() => {});
}

function endedEarly(): AppError {
  return validationFailed([{ field: 'body', message: 'Request body ended early' }]);
}

/** Answered on a closing connection: the rest of the body is only read, for a moment, by its lingering close. */
function closing(code: 'UPLOAD_TOO_LARGE' | 'REQUEST_TIMEOUT'): AppError {
  return new AppError(code, undefined, { headers: { connection: 'close' } });
}

export function uploadTooLarge(): AppError {
  return new AppError('UPLOAD_TOO_LARGE');
}
