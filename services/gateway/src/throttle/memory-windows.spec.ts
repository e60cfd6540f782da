import { jest } from '@jest/globals';
import { MemoryWindows } from './memory-windows.js';

describe('MemoryWindows', () => {
  it('counts hits in a fixed window that starts at the first hit', () => {
    const windows = new MemoryWindows();
    expect(windows.hit('k', 1_000, undefined, 10_000)).toEqual({ count: 1, resetInMs: 1_000 });
    expect(windows.hit('k', 1_000, undefined, 10_400)).toEqual({ count: 2, resetInMs: 600 });
    expect(windows.hit('other', 1_000, undefined, 10_400)).toEqual({ count: 1, resetInMs: 1_000 });
    expect(windows.hit('k', 1_000, undefined, 11_000)).toEqual({ count: 1, resetInMs: 1_000 });
  });

  it('refuses a weighted hit that would pass its limit whole, counting nothing', () => {
    const windows = new MemoryWindows();
    expect(windows.hit('k', 1_000, { cost: 50, wholeLimit: 60 }, 10_000)).toEqual({ count: 50, resetInMs: 1_000 });
    expect(windows.hit('k', 1_000, { cost: 11, wholeLimit: 60 }, 10_100)).toEqual({ count: 61, resetInMs: 900 });
    expect(windows.hit('k', 1_000, { cost: 10, wholeLimit: 60 }, 10_200)).toEqual({ count: 60, resetInMs: 800 });
  });

  it('sweeps expired windows once it holds 10,000, and while they are all live, not again before it holds twice as many', () => {
    const windows = new MemoryWindows();
    const map = (windows as unknown as { windows: Map<string, unknown> }).windows;
    const sweeps = jest.spyOn(map, Symbol.iterator);
    for (let key = 0; key < 10_000; key += 1) windows.hit(`old-${key}`, 1_000, undefined, 0);
    windows.hit('after-expiry', 60_000, undefined, 5_000);
    expect(sweeps).toHaveBeenCalledTimes(1);
    expect(map.size).toBe(1);

    for (let key = 0; key < 9_999; key += 1) windows.hit(`live-${key}`, 60_000, undefined, 6_000);
    windows.hit('live-sweep', 60_000, undefined, 6_000);
    expect(sweeps).toHaveBeenCalledTimes(2);
    for (let key = 0; key < 9_999; key += 1) windows.hit(`more-${key}`, 60_000, undefined, 6_000);
    expect(sweeps).toHaveBeenCalledTimes(2);
    windows.hit('twice-as-many', 60_000, undefined, 6_000);
    expect(sweeps).toHaveBeenCalledTimes(3);
  });
});
