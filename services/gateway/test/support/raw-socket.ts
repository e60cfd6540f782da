import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';

export interface SocketExchange {
  /** Everything the server wrote, as text. */
  text: string;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  closedAfterMs: number;
}

export interface ParsedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw TCP client: writes `head` at once, then each of `drip` (if any) every `dripEveryMs`, and
 * collects what the server answers until it closes the connection (or `giveUpMs`, stretched by the
 * time scale, passes).
 */
export async function exchange(
  url: string,
  head: string | Buffer,
  options: { drip?: Array<string | Buffer>; dripEveryMs?: number; giveUpMs?: number } = {},
): Promise<SocketExchange> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = Date.now();
  socket.write(head);
  let open = true;
  void closed.then(() => (open = false));
  void (async () => {
    for (const piece of options.drip ?? []) {
      await sleep(options.dripEveryMs ?? 100);
      if (!open) return;
      socket.write(piece);
    }
  })();
  const stopWaiting = new AbortController();
  const giveUp = sleep(scaled(options.giveUpMs ?? 10_000), 'timeout' as const, { signal: stopWaiting.signal }).catch(() => 'closed' as const);
  const outcome = await Promise.race([closed, giveUp]);
  stopWaiting.abort();
  const closedAfterMs = outcome === 'timeout' ? Number.POSITIVE_INFINITY : Date.now() - started;
  socket.destroy();
  return { text: Buffer.concat(chunks).toString('utf8'), closedAfterMs };
}

/** The first response of a raw exchange (the server closes after it, so the body is the rest). */
export function parseResponse(text: string): ParsedResponse {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}
