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
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(what, ms)), ms);
  });
  try {
    return await Promise.race([typeof work === 'function' ? work() : work, deadline]);
  } finally {
    clearTimeout(timer);
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
