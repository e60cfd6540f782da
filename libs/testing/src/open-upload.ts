import { connect, type Socket } from 'node:net';
import { multipartPrefix } from './upload-bodies.js';

export interface OpenUploadOptions {
  /** Bearer token of the caller. */
  token: string;
  /** Local address to send from (any 127.0.0.x works on Linux loopback). */
  localAddress?: string;
  headers?: Record<string, string>;
  /** The body the request head announces (content-length); only its start is sent. */
  declaredBytes?: number;
}

export interface OpenUpload {
  /** Resolves with what the server wrote once it closes the connection or it is dropped. */
  readonly answer: Promise<string>;
  /** Sends one more byte of the file. */
  drip(): void;
  /** Sends the rest of the declared body, the closing boundary included. */
  finish(): void;
  /** Drops the connection with a TCP reset. */
  reset(): void;
  /** Closes the connection the ordinary way, mid-body. */
  end(): void;
}

const BOUNDARY = 'openupload';

/**
 * A multipart upload whose head and first body bytes are sent at once and whose body never
 * completes unless the test drips all of it: the client every abuse test needs.
 */
export async function openUpload(url: string, path: string, options: OpenUploadOptions): Promise<OpenUpload> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port), ...(options.localAddress && { localAddress: options.localAddress }) });
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(Buffer.concat(received).toString('utf8'))));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const prefix = multipartPrefix(BOUNDARY);
  const declared = options.declaredBytes ?? 64 * 1024;
  const head = [
    `POST ${path} HTTP/1.1`,
    'host: upload.test',
    // The answer is complete when the server closes.
    'connection: close',
    `authorization: Bearer ${options.token}`,
    `content-type: multipart/form-data; boundary=${BOUNDARY}`,
    `content-length: ${declared}`,
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), prefix]));
  let sent = prefix.length;
  const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return {
    answer,
    drip: () => {
      if (socket.destroyed) return;
      socket.write('a');
      sent += 1;
    },
    finish: () => {
      if (socket.destroyed) return;
      socket.write(Buffer.concat([Buffer.alloc(Math.max(0, declared - sent - closing.length), 'a'), closing]));
    },
    reset: () => socket.resetAndDestroy(),
    end: () => socket.end(),
  };
}
