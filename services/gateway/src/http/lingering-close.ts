import type { IncomingMessage } from 'node:http';

/**
 * After an answer sent before its request's body was read whole, how much more of the body is read
 * and discarded before the connection closes: at most `totalMs` and `maxBytes`, and no longer than
 * `idleMs` without a byte (a client that is not sending has nothing to lose to a close).
 */
export const LINGERING_CLOSE = { totalMs: 5_000, idleMs: 1_000, maxBytes: 64 * 1024 * 1024 };

export interface DiscardLimits {
  maxBytes: number;
  deadlineMs: number;
  /** Gives up after this long without a byte; by default only the deadline counts. */
  idleMs?: number;
}

/**
 * Node's server closes a connection as soon as an answer with `Connection: close` is written. With
 * the client's bytes still unread, the kernel then resets the connection, and a client still writing
 * loses the answer it had not read yet (seen on a loaded machine: an empty reply instead of a 413).
 * So, as nginx's lingering close does, the answer is followed by a FIN and the rest of the body is
 * read and discarded (LINGERING_CLOSE) until the client stops, having read the answer; only then is
 * the socket closed.
 */
export function lingerBeforeClosing(request: IncomingMessage): void {
  const socket = request.socket;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const { maxBytes, totalMs, idleMs } = LINGERING_CLOSE;
    void discardBody(request, { maxBytes, deadlineMs: totalMs, idleMs }).then(() => socket.destroy());
  };
}

/** Reads `body` to its end without keeping it; true when it ended within the limits. */
export function discardBody(body: IncomingMessage, limits: DiscardLimits): Promise<boolean> {
  if (body.complete) return Promise.resolve(true);
  if (body.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    let done = false;
    const finish = (ended: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(idle);
      body.off('data', count);
      body.off('end', onEnd);
      body.off('error', onStop);
      body.off('close', onStop);
      if (!ended) body.pause();
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.maxBytes) return finish(false);
      idle?.refresh();
    };
    const onEnd = () => finish(true);
    const onStop = () => finish(body.complete);
    const deadline = setTimeout(() => finish(false), limits.deadlineMs);
    // A timer that fires after the event loop was held (a loaded machine) runs before the bytes that
    // arrived meanwhile are read: the idle verdict waits for them (setImmediate follows the poll phase).
    const idle =
      limits.idleMs === undefined
        ? undefined
        : setTimeout(() => {
            const before = read;
            setImmediate(() => (read === before ? finish(false) : idle?.refresh()));
          }, limits.idleMs);
    // A pipe into a stalled upstream would hold the bytes in memory; only this reader remains.
    body.unpipe();
    body.on('data', count);
    body.once('end', onEnd);
    body.once('error', onStop);
    body.once('close', onStop);
    body.resume();
  });
}
