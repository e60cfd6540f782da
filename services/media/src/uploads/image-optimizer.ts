import sharp, { type Metadata } from 'sharp';
import { decodeBudget } from './image-budget.js';
import { optimisedBox } from './optimised-size.js';

// One libvips thread per conversion and no operation cache: conversions are few at once (the
// ConversionGate) and each holds at most one frame of its output, so memory stays bounded.
sharp.concurrency(1);
sharp.cache(false);

/**
 * libwebp's method 2: methods 3 and above keep every macroblock's tokens for rate-distortion, which
 * cost a maximal image 76 MB more for files 1.5 % smaller (docs/operations/scaling.md).
 */
const WEBP_EFFORT = 2;

export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';
}

/**
 * The image at `input` written to `output` as WebP: EXIF orientation applied first, then every
 * metadata block dropped (sharp keeps none unless asked); an animated GIF or WebP stays animated;
 * each frame is shrunk to MAX_OPTIMISED_PIXELS if larger (a JPEG or WebP is shrunk while it is
 * decoded). The header is read first (metadata() decodes no pixel): an image over its decode
 * budget is refused before any decoding (contract §9).
 */
export async function toWebp(input: string, output: string, signal?: AbortSignal): Promise<void> {
  try {
    const { header, limit } = await checkedBudget(input);
    // Its request is gone: no decode for nobody (libvips offers no way to stop one once started).
    signal?.throwIfAborted();
    const box = optimisedBox(header.width, header.pageHeight ?? header.height);
    await sharp(input, { limitInputPixels: limit, animated: true, failOn: 'error' })
      .rotate()
      .resize(box === undefined ? null : { width: box, height: box, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: WEBP_EFFORT })
      .toFile(output);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error instanceof ImageDecodeError ? error : new ImageDecodeError('the image could not be decoded', { cause: error });
  }
}

/** The image's header, the pixels decoding it would produce and its budget; ImageDecodeError when unreadable or over it. */
export async function checkedBudget(input: string): Promise<{ header: Metadata; pixels: number; limit: number }> {
  try {
    const header = await sharp(input, { animated: true }).metadata();
    const { pixels, limit } = decodeBudget(header);
    if (!(pixels > 0 && pixels <= limit)) throw new Error(`${pixels} pixels declared, at most ${limit} are decoded`);
    return { header, pixels, limit };
  } catch (error) {
    throw new ImageDecodeError('the image could not be decoded', { cause: error });
  }
}
