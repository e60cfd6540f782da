import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';

/** Quiet for this long (no process printing, not ready): start-up has stalled. */
const STALL_MS = 120_000;
/** However busy the processes are, start-up takes no longer than this. */
const READY_BOUND_MS = 600_000;

export interface ReadinessWatch {
  /** Why start-up cannot succeed any more (a process exited), if so. */
  exited(): string | undefined;
  /** When a process being waited on last printed anything. */
  lastOutputAt(): number;
}

/**
 * Polls `url` until it answers 200. Fails at once when a process exits, and otherwise only when
 * nothing has been printed for STALL_MS or READY_BOUND_MS has passed, both stretched by the time
 * scale (TEST_TIME_SCALE): a slow machine that is still making progress is not a failure. Returns
 * why it failed, naming what it waited for; undefined once ready.
 */
export async function untilReady(url: string, watch: ReadinessWatch, boundMs = READY_BOUND_MS): Promise<string | undefined> {
  const startedAt = Date.now();
  const stallMs = scaled(STALL_MS);
  const bound = scaled(boundMs);
  let lastAnswer = 'no answer yet';
  for (;;) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(stallMs) }).catch(() => undefined);
    if (answer?.ok) return undefined;
    if (answer) lastAnswer = `${answer.status} ${(await answer.text().catch(() => '')).slice(0, 300)}`;
    const waited = `waited ${Math.round((Date.now() - startedAt) / 1000)} s for GET ${url} to answer 200 (last: ${lastAnswer})`;
    const dead = watch.exited();
    if (dead) return `${dead}; ${waited}`;
    if (Date.now() - watch.lastOutputAt() > stallMs) return `no process printed anything for ${stallMs / 1000} s; ${waited}`;
    if (Date.now() - startedAt > bound) return `the bound of ${bound / 1000} s (TEST_TIME_SCALE stretches it) passed; ${waited}`;
    await sleep(300);
  }
}
