import { decodeBudget, MAX_ANIMATION_PIXELS, MAX_STILL_PIXELS } from './image-budget.js';

describe('decodeBudget (contract §9)', () => {
  it('gives a still image 40 megapixels', () => {
    expect(decodeBudget({ width: 8000, height: 5000 })).toEqual({ pixels: 40_000_000, limit: MAX_STILL_PIXELS });
    expect(decodeBudget({ width: 6500, height: 6500, pages: 1 })).toEqual({ pixels: 42_250_000, limit: MAX_STILL_PIXELS });
  });

  it('gives an animation 100 megapixels over all its frames (height is every frame stacked)', () => {
    expect(decodeBudget({ width: 1000, height: 1000 * 101, pages: 101 })).toEqual({ pixels: 101_000_000, limit: MAX_ANIMATION_PIXELS });
  });

  it('counts nothing for a header without a size', () => {
    expect(decodeBudget({}).pixels).toBe(0);
  });
});
