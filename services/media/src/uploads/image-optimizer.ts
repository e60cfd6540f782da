import sharp from 'sharp';
import { decodeBudget } from './image-budget.js';

// One libvips thread per conversion and no operation cache: conversions are few at once (the
// ConversionGate) and each holds at most one decoded image, so memory stays bounded.
sharp.concurrency(1);
sharp.cache(false);

export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';
}

/**
 * The image at `input` written to `output` as WebP: EXIF orientation applied first, then every
 * metadata block dropped (sharp keeps none unless asked); an animated GIF or WebP stays animated.
 * The header is read first (metadata() decodes no pixel): an image over its decode budget is
 * refused before any decoding (contract §9).
 */
export async function toWebp(input: string, output: string, signal?: AbortSignal): Promise<void> {
  try {
    const { limit } = await checkedBudget(input);
    // Its request is gone: no decode for nobody (libvips offers no way to stop one once started).
    signal?.throwIfAborted();
    await sharp(input, { limitInputPixels: limit, animated: true, failOn: 'error' }).rotate().webp({ quality: 82, effort: 3 }).toFile(output);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error instanceof ImageDecodeError ? error : new ImageDecodeError('the image could not be decoded', { cause: error });
  }
}

/** The pixels decoding the image at `input` would produce, from its header, and its budget; ImageDecodeError when unreadable or over it. */
export async function checkedBudget(input: string): Promise<{ pixels: number; limit: number }> {
  try {
    const { pixels, limit } = decodeBudget(await sharp(input, { animated: true }).metadata());
    if (!(pixels > 0 && pixels <= limit)) throw new Error(`${pixels} pixels declared, at most ${limit} are decoded`);
    return { pixels, limit };
  } catch (error) {
    throw new ImageDecodeError('the image could not be decoded', { cause: error });
  }
}
