export interface BackoffOptions {
  /** Delay before the first retry. */
  initialMs: number;
  /** Upper bound of any delay. */
  maxMs: number;
}

/**
 * Exponential backoff with "equal jitter": attempt 0 waits about `initialMs`, each further
 * attempt doubles it, never beyond `maxMs`; half of each delay is random so replicas spread out.
 */
export function backoffDelay(attempt: number, { initialMs, maxMs }: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or at once when the signal aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
