import { scaled } from './time-scale.js';

/** Polls `probe` until it returns a truthy value or the time (stretched by the time scale) is up. */
export async function waitFor<T>(probe: () => Promise<T> | T, { timeoutMs = 15_000, intervalMs = 25, what = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + scaled(timeoutMs);
  let last: T;
  do {
    last = await probe();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  } while (Date.now() < deadline);
  throw new Error(`timed out after ${scaled(timeoutMs)} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}
