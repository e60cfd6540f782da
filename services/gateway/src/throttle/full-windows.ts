import type { HitWeight, WindowCount } from './window-count.js';

const SWEEP_ABOVE = 10_000;

/**
 * Windows Redis has shown full, so that the rest of their hits are refused in this process without a
 * round trip (a client hammering past its limit costs no Redis call). Exact across replicas: a fixed
 * window never shrinks its count or moves its end, so once Redis has counted `limit` hits every
 * later hit of that window is refused by every replica, and counting those refusals (spec §4.3 rule
 * 5) changes no answer. The end is reckoned from when the question was sent, never later than
 * Redis's own. Only Redis's answers are learnt: the memory fallback's counts are this process's alone.
 */
export class FullWindows {
  /** Key -> epoch ms at which its full window ends. */
  private readonly until = new Map<string, number>();
  private sweepAt = SWEEP_ABOVE;

  /** The refusal of a hit on a window known full (a count past any limit), or undefined: ask Redis. */
  refusal(key: string, now = Date.now()): WindowCount | undefined {
    const endsAt = this.until.get(key);
    if (endsAt === undefined) return undefined;
    if (endsAt > now) return { count: Number.POSITIVE_INFINITY, resetInMs: endsAt - now };
    this.until.delete(key);
    return undefined;
  }

  /** What Redis answered to a hit sent at `askedAt`: full when no hit of any cost fits any more. */
  learn(key: string, limit: number, weight: HitWeight, counted: WindowCount, askedAt: number): void {
    // A refused batch counted nothing: the window holds what it held before this hit.
    const held = weight.wholeLimit !== undefined && counted.count > weight.wholeLimit ? counted.count - weight.cost : counted.count;
    if (held < limit) return;
    if (this.until.size >= this.sweepAt) this.sweep(askedAt);
    this.until.set(key, askedAt + counted.resetInMs);
  }

  private sweep(now: number): void {
    for (const [key, endsAt] of this.until) if (endsAt <= now) this.until.delete(key);
    this.sweepAt = Math.max(SWEEP_ABOVE, this.until.size * 2);
  }
}
