import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** Kept of each process's output in memory; a longer run keeps its latest part. */
const KEPT_CHARACTERS = 4 * 1024 * 1024;

/**
 * What one process printed: kept in memory (its latest part), and on request copied to a file (for
 * readers in another process) and forwarded to this process's stderr line by line with its name.
 */
export class ProcessOutput {
  private text = '';
  private lastAt = Date.now();
  private readonly file: WriteStream | undefined;

  constructor(
    private readonly name: string,
    logFile: string | undefined,
    private readonly forward: boolean,
  ) {
    this.file = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  }

  /** Takes what `stream` prints until it ends. */
  follow(stream: Readable | null): void {
    stream?.on('data', (chunk: Buffer) => this.keep(chunk));
  }

  private keep(chunk: Buffer): void {
    const text = chunk.toString();
    this.text = (this.text + text).slice(-KEPT_CHARACTERS);
    this.lastAt = Date.now();
    this.file?.write(chunk);
    if (this.forward) for (const line of text.split('\n').filter(Boolean)) process.stderr.write(`[${this.name}] ${line}\n`);
  }

  /** When the process last printed anything (or when it was started). */
  get lastOutputAt(): number {
    return this.lastAt;
  }

  toString(): string {
    return this.text;
  }

  close(): void {
    this.file?.end();
  }
}
