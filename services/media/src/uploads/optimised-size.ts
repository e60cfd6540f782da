/**
 * An optimised image keeps at most this many pixels a frame. Decoding is bounded by contract §9
 * (40 megapixels, 100 over all of an animation's frames) and streams; the WebP encoder holds whole
 * frames: libvips' copy of the frame and libwebp's picture (4.5 bytes a pixel, 6.5 with
 * transparency, plus libwebp's lossless alpha encoder). One maximal conversion took 460-520 MB at
 * full size and takes 40-150 MB at 4 megapixels, so two at once fit media's chart limit
 * (docs/operations/scaling.md).
 */
export const MAX_OPTIMISED_PIXELS = 4_000_000;
/** The largest width or height a WebP can have. */
export const MAX_WEBP_SIDE = 16_383;

/**
 * The square box an image (each frame of an animation) is shrunk to fit in, keeping its aspect
 * ratio, or undefined when it fits as it is. A square, so that it holds whichever way EXIF
 * orientation turns the image.
 */
export function optimisedBox(width: number, frameHeight: number): number | undefined {
  const scale = Math.min(1, Math.sqrt(MAX_OPTIMISED_PIXELS / (width * frameHeight)));
  const side = Math.min(MAX_WEBP_SIDE, Math.floor(Math.max(width, frameHeight) * scale));
  return side < Math.max(width, frameHeight) ? side : undefined;
}
