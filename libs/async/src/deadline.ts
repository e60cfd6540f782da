/** The awaited work did not settle in time; `what` names it for the log line. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${ms} ms`);
  }
}

/**
 * Settles as `work` does, or rejects with DeadlineExceededError after `ms`. The timer is cleared
 * either way, so nothing is left to hold the process open; `work` itself is not cancelled (pass
 * an AbortSignal to it where it takes one).
 */
export async function withDeadline<T>(work: Promise<T> | (() => Promise<T>), ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const deadline = new Promise<never>((_, reject) => {
    // After a stall (a busy CPU, a long synchronous task) the timer and the answer are due at
    // once, and timers run before I/O: the rejection waits for this turn's I/O (setImmediate runs
    // after the poll phase), so an answer that did arrive in time wins.
    timer = setTimeout(() => (immediate = setImmediate(() => reject(new DeadlineExceededError(what, ms)))), ms);
  });
  try {
    return await Promise.race([typeof work === 'function' ? work() : work, deadline]);
  } finally {
    clearTimeout(timer);
    clearImmediate(immediate);
  }
}

/** True when `check` resolves within `ms`: the one readiness probe of every process. */
export async function answersWithin(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  try {
    await withDeadline(check, ms, 'readiness check');
    return true;
  } catch {
    return false;
  }
}
