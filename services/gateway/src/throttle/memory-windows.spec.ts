import { MemoryWindows } from './memory-windows.js';

describe('MemoryWindows', () => {
  it('counts hits in a fixed window that starts at the first hit', () => {
    const windows = new MemoryWindows();
    expect(windows.hit('k', 1_000, 10_000)).toEqual({ count: 1, resetInMs: 1_000 });
    expect(windows.hit('k', 1_000, 10_400)).toEqual({ count: 2, resetInMs: 600 });
    expect(windows.hit('other', 1_000, 10_400)).toEqual({ count: 1, resetInMs: 1_000 });
    expect(windows.hit('k', 1_000, 11_000)).toEqual({ count: 1, resetInMs: 1_000 });
  });
});
