// How a child's output reaches the terminal or the log collector behind `npm start`.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { formatLogLine } from './log-format.js';

const TAIL_CHARS = 16_384;

/** The last output of a child, kept until it is ready, for the report of a start-up failure. */
export class OutputTail {
  #text = '';
  recording = true;

  add(text: string): void {
    if (this.recording) this.#text = (this.#text + text).slice(-TAIL_CHARS);
  }

  lines(count: number): string[] {
    return this.#text.split('\n').filter(Boolean).slice(-count);
  }
}

/**
 * Forwards a child's output. `readable` (a person at a terminal): every line turned into
 * `HH:MM:SS LEVEL message key=value` behind the child's label. Otherwise stdout passes through
 * untouched, whole lines at a time (its JSON lines name their service), so a collector gets the
 * services' own lines and the supervisor parses nothing; stderr (crashes, warnings) keeps the label.
 */
export interface OutputForwarding {
  label: string;
  /** Lines formatted for a person at a terminal, instead of the services' JSON untouched. */
  readable: boolean;
  tail: OutputTail;
  write?: (text: string) => void;
}

export function forwardOutput(child: ChildProcess, { label, readable, tail, write = (text) => process.stdout.write(text) }: OutputForwarding): void {
  const { stdout, stderr } = child;
  if (!stdout || !stderr) throw new Error('forwardOutput needs a child with piped stdout and stderr');
  const labelled = (stream: Readable, format: (line: string) => string) =>
    createInterface({ input: stream }).on('line', (line) => {
      const text = `${format(line)}\n`;
      tail.add(text);
      write(`${label}${text}`);
    });
  if (readable) {
    labelled(stdout, formatLogLine);
    labelled(stderr, formatLogLine);
    return;
  }
  labelled(stderr, (line) => line);
  let partial = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const end = chunk.lastIndexOf('\n');
    if (end === -1) {
      partial += chunk;
      return;
    }
    const text = partial + chunk.slice(0, end + 1);
    partial = chunk.slice(end + 1);
    tail.add(text);
    write(text);
  });
  stdout.on('end', () => {
    if (partial) write(`${partial}\n`);
  });
}
