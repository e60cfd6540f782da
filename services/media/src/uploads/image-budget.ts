/** Contract §9: a still image decodes to at most 40 megapixels, an animation to 100 over all its frames. */
export const MAX_STILL_PIXELS = 40_000_000;
export const MAX_ANIMATION_PIXELS = 100_000_000;

/**
 * The pixels conversions decode together by default: one maximal image (40 MP) and smaller ones
 * beside it, never two maximal ones. While customers convert maximal images, the second slot stays
 * open to everyone else's ordinary images, which then wait for no maximal conversion to end.
 */
export const DEFAULT_CONVERSION_MEGAPIXELS = 60;

/** What an image's header declares, read without decoding a pixel. */
export interface DeclaredSize {
  width?: number | undefined;
  /** With every frame read (`animated`), the height of all frames stacked; `pageHeight` is one frame's. */
  height?: number | undefined;
  pages?: number | undefined;
}

/** The pixels decoding the whole image would produce, and the most it may: over it, nothing is decoded. */
export function decodeBudget(size: DeclaredSize): { pixels: number; limit: number } {
  const animated = (size.pages ?? 1) > 1;
  return { pixels: (size.width ?? 0) * (size.height ?? 0), limit: animated ? MAX_ANIMATION_PIXELS : MAX_STILL_PIXELS };
}
