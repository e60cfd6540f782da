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
});
