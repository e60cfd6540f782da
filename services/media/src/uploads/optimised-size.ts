/**
 * An optimised image keeps at most this many pixels a frame. Decoding is bounded by contract §9
 * (40 megapixels, 100 over all of an animation's frames); what the encoder holds is bounded here:
 * libvips writes WebP from a buffer of the whole frame, and libwebp converts it to a picture of its
 * own, about 10 bytes a pixel with transparency. At 40 megapixels that is 400 MB a conversion; at 4
 * it is about 85 MB, so two conversions at once stay within media's memory (docs/operations/scaling.md).
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
