// How a child's output reaches the terminal or the log collector behind `npm start`.
import { createInterface } from 'node:readline';
import { formatLogLine } from './log-format.mjs';

const TAIL_CHARS = 16_384;

/** The last output of a child, kept until it is ready, for the report of a start-up failure. */
export class OutputTail {
  #text = '';
  recording = true;

  add(text) {
    if (this.recording) this.#text = (this.#text + text).slice(-TAIL_CHARS);
  }

  lines(count) {
    return this.#text.split('\n').filter(Boolean).slice(-count);
  }
}

/**
 * Forwards a child's output. `readable` (a person at a terminal): every line turned into
 * `HH:MM:SS LEVEL message key=value` behind the child's label. Otherwise stdout passes through
 * untouched, whole lines at a time (its JSON lines name their service), so a collector gets the
 * services' own lines and the supervisor parses nothing; stderr (crashes, warnings) keeps the label.
 */
export function forwardOutput(child, { label, readable, tail, write = (text) => process.stdout.write(text) }) {
  const labelled = (stream, format) =>
    createInterface({ input: stream }).on('line', (line) => {
      const text = `${format(line)}\n`;
      tail.add(text);
      write(`${label}${text}`);
    });
  if (readable) {
    labelled(child.stdout, formatLogLine);
    labelled(child.stderr, formatLogLine);
    return;
  }
  labelled(child.stderr, (line) => line);
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
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
  child.stdout.on('end', () => {
    if (partial) write(`${partial}\n`);
  });
}
