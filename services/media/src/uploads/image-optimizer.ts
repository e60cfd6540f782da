import sharp from 'sharp';

/** Decompression bombs: anything over 50 megapixels is refused before decoding. */
export const MAX_INPUT_PIXELS = 50_000_000;

export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';
}

/**
 * The image at `input` written to `output` as WebP: EXIF orientation applied first, then every
 * metadata block dropped (sharp keeps none unless asked); an animated GIF or WebP stays animated.
 */
export async function toWebp(input: string, output: string): Promise<void> {
  try {
    await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: true, failOn: 'error' })
      .rotate()
      .webp({ quality: 82, effort: 3 })
      .toFile(output);
  } catch (error) {
    throw new ImageDecodeError('the image could not be decoded', { cause: error });
  }
}
