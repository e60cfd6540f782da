import { connect } from 'node:net';
import { scaled } from './time-scale.js';

export interface OversizedExchange {
  /** Body bytes the socket had accepted when the first byte of the answer arrived (or it closed). */
  writtenAtAnswer: number;
  /** Body bytes the socket accepted in all. */
  written: number;
  /** What the server wrote back. */
  response: string;
  /** Largest growth of this process's resident memory while the exchange lasted, in bytes. */
  peakRssGrowth: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const RSS_SAMPLE_MS = 20;
const ANSWER_GRACE_MS = 300;
/** A server that neither reads, answers nor closes for this long (stretched by the time scale) is given up on. */
const STALL_MS = 15_000;

export interface OversizedOptions {
  /** Go on sending after the answer, stopping only when the connection closes, as a hostile client would. */
  ignoreAnswer?: boolean;
  /**
   * Stop sending after this many body bytes and wait for the answer: a server that answers at its
   * cap must do so from what it has by then, however slow the machine (where a client that goes on
   * sending gets further the longer the answer takes).
   */
  pauseAt?: number;
}

/**
 * Sends `head` (request line and headers, chunked transfer encoding) then `prefix`, then blank
 * bytes generated as they are written (never held whole) up to `bodyBytes`, stopping as a client
 * does once an answer arrives or the connection closes. For servers running in this process, the
 * resident memory is sampled meanwhile: a body buffered whole would show as growth of its size.
 */
export function sendOversized(url: string, head: string, prefix: Buffer, bodyBytes: number, options: OversizedOptions = {}): Promise<OversizedExchange> {
  const { hostname, port } = new URL(url);
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), RSS_SAMPLE_MS);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let written = 0;
    let writtenAtAnswer: number | undefined;
    let sending = true;
    const stop = () => {
      if (writtenAtAnswer !== undefined) return;
      writtenAtAnswer = written;
      if (options.ignoreAnswer) return;
      sending = false;
      // The answer is a short envelope; a server keeping the connection open is not waited for.
      setTimeout(() => socket.destroy(), ANSWER_GRACE_MS).unref();
    };
    // Progress, not the clock: a slow machine reads 200 MiB slowly, a stalled server not at all.
    const giveUp = setTimeout(() => socket.destroy(), scaled(STALL_MS));
    socket.on('drain', () => giveUp.refresh());
    socket.on('data', (data: Buffer) => {
      giveUp.refresh();
      stop();
      received.push(data);
    });
    socket.on('error', () => {
      stop();
      sending = false;
    });
    socket.once('close', () => {
      clearTimeout(giveUp);
      clearInterval(sampler);
      stop();
      resolve({ writtenAtAnswer: writtenAtAnswer ?? written, written, response: Buffer.concat(received).toString('latin1'), peakRssGrowth: peak - baseline });
    });
    const chunked = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    const until = Math.min(bodyBytes, options.pauseAt ?? bodyBytes);
    const pump = () => {
      while (sending && !socket.destroyed && written < until) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, until - written));
        written += piece.length;
        if (!socket.write(chunked(piece))) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!sending || socket.destroyed || written < bodyBytes) return;
      socket.write('0\r\n\r\n');
      if (options.ignoreAnswer) setTimeout(() => socket.destroy(), ANSWER_GRACE_MS).unref();
    };
    socket.once('connect', () => {
      socket.write(head);
      socket.write(chunked(prefix));
      written = prefix.length;
      pump();
    });
  });
}

/** Request line and headers of a multipart upload of `length` bytes (its body is never sent whole by these helpers). */
export function uploadHead(path: string, length: number, headers: Record<string, string> = {}): string {
  const lines = [`POST ${path} HTTP/1.1`, 'host: upload.test', 'content-type: multipart/form-data; boundary=x', `content-length: ${length}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** `bytes` as one chunk of a chunked body, followed by the last chunk. */
export function chunkedBody(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);
}

/** Request line and headers of a chunked multipart upload (`boundary` as in `multipartPrefix`). */
export function chunkedUploadHead(path: string, boundary: string, headers: Record<string, string> = {}): string {
  const lines = [`POST ${path} HTTP/1.1`, 'host: upload.test', `content-type: multipart/form-data; boundary=${boundary}`, 'transfer-encoding: chunked'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The start of a multipart body: one file part whose bytes follow (a text file, so any bytes pass as content until the cap). */
export function multipartPrefix(boundary: string, field = 'file', filename = 'big.txt', type = 'text/plain'): Buffer {
  return Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`);
}

export interface WriteThenReadExchange {
  /** The server's answer (empty when the connection was reset under it) and the socket errors seen. */
  response: string;
  errors: string[];
}

/**
 * A client that writes the whole request before it reads anything, as undici effectively does
 * under load: if the server closes on bytes it never read, the reset throws its answer away.
 * Bodies larger than the loopback buffers (a few MiB) make that reset certain. `body`: a byte count
 * (that many bytes of `a`) or the exact bytes (a chunked body's framing, say).
 */
export function writeThenRead(url: string, head: string, body: number | Buffer): Promise<WriteThenReadExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    const errors: string[] = [];
    socket.pause();
    const giveUp = setTimeout(() => socket.destroy(), scaled(STALL_MS));
    socket.on('data', (data: Buffer) => {
      giveUp.refresh();
      // A server keeping the connection open after its (short) answer is not waited for.
      if (received.length === 0) setTimeout(() => socket.destroy(), ANSWER_GRACE_MS).unref();
      received.push(data);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(String(error.code)));
    socket.once('close', () => {
      clearTimeout(giveUp);
      resolve({ response: Buffer.concat(received).toString('latin1'), errors });
    });
    socket.once('connect', () => {
      socket.write(head);
      socket.write(typeof body === 'number' ? Buffer.alloc(body, 0x61) : body, () => socket.resume());
    });
  });
}
