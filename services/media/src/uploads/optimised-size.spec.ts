import { MAX_OPTIMISED_PIXELS, MAX_WEBP_SIDE, optimisedBox } from './optimised-size.js';

/** The size `fit: inside` gives an image of width x height in a square box of `side`. */
function fitted(width: number, height: number, side: number | undefined): [number, number] {
  if (side === undefined) return [width, height];
  const scale = side / Math.max(width, height);
  return [Math.round(width * scale), Math.round(height * scale)];
}

describe('optimisedBox', () => {
  it('leaves an image of at most 4 megapixels as it is', () => {
    expect(optimisedBox(2000, 2000)).toBeUndefined();
    expect(optimisedBox(64, 48)).toBeUndefined();
  });

  it('shrinks a maximal image to at most 4 megapixels, keeping its aspect ratio', () => {
    const [width, height] = fitted(7999, 4999, optimisedBox(7999, 4999));
    expect(width * height).toBeLessThanOrEqual(MAX_OPTIMISED_PIXELS);
    expect(width * height).toBeGreaterThan(0.99 * MAX_OPTIMISED_PIXELS);
    expect(Math.abs(width / height - 7999 / 4999)).toBeLessThan(0.01);
  });

  it('keeps every side within what WebP can hold', () => {
    expect(optimisedBox(40_000, 100)).toBe(MAX_WEBP_SIDE);
    expect(optimisedBox(20_000, 5)).toBe(MAX_WEBP_SIDE);
  });

  it('sizes each frame of an animation, not the frames stacked', () => {
    expect(optimisedBox(1000, 1000)).toBeUndefined();
    expect(optimisedBox(5000, 5000)).toBe(2000);
  });
});
