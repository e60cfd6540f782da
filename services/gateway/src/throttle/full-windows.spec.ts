import { FullWindows } from './full-windows.js';
import { SINGLE_HIT } from './window-count.js';

describe('FullWindows', () => {
  const limit = 3;

  it('knows nothing of a window below its limit', () => {
    const full = new FullWindows();
    full.learn('k', limit, SINGLE_HIT, { count: 2, resetInMs: 60_000 }, 1_000);
    expect(full.refusal('k', 1_001)).toBeUndefined();
  });

  it('refuses the rest of a window Redis counted up to its limit, until the window ends', () => {
    const full = new FullWindows();
    full.learn('k', limit, SINGLE_HIT, { count: 3, resetInMs: 60_000 }, 1_000);
    expect(full.refusal('k', 31_000)).toEqual({ count: Number.POSITIVE_INFINITY, resetInMs: 30_000 });
    expect(full.refusal('other', 31_000)).toBeUndefined();
    expect(full.refusal('k', 61_000)).toBeUndefined();
    expect(full.refusal('k', 1_500)).toBeUndefined();
  });

  it('takes a refused batch as counting nothing: a smaller one may still fit', () => {
    const full = new FullWindows();
    full.learn('k', limit, { cost: 3, wholeLimit: limit }, { count: 5, resetInMs: 60_000 }, 1_000);
    expect(full.refusal('k', 1_001)).toBeUndefined();
    full.learn('k', limit, { cost: 2, wholeLimit: limit }, { count: 5, resetInMs: 60_000 }, 1_000);
    expect(full.refusal('k', 1_001)?.resetInMs).toBe(59_999);
  });
});
