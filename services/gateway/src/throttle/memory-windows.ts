import { SINGLE_HIT, type HitWeight, type WindowCount } from './window-count.js';

const SWEEP_ABOVE = 10_000;

/** Fixed windows in this process's memory: the throttle's fallback while Redis is unreachable. */
export class MemoryWindows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  /** The size at which the next new window sweeps the expired ones: twice what a sweep left, so that many live windows are not walked on every new one. */
  private sweepAt = SWEEP_ABOVE;

  hit(key: string, windowMs: number, weight: HitWeight = SINGLE_HIT, now = Date.now()): WindowCount {
    let window = this.windows.get(key);
    const current = window && window.resetAt > now ? window.count : 0;
    if (weight.wholeLimit !== undefined && current + weight.cost > weight.wholeLimit) {
      return { count: current + weight.cost, resetInMs: window && current > 0 ? window.resetAt - now : windowMs };
    }
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= this.sweepAt) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += weight.cost;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
    this.sweepAt = Math.max(SWEEP_ABOVE, this.windows.size * 2);
  }
}
