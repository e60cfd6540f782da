import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { AppError } from '@school/http';
import { fileTypeFromFile } from 'file-type';
import type { Format } from '@school/contracts';

/** Browsers sniff the first 512 bytes; markup there could turn a file into a page. */
const SNIFF_WINDOW = 1024;
const MARKUP = /<\s*(?:!doctype|html|head|body|script|svg|iframe|object|embed|\?xml)/i;

function rejected(): AppError {
  return new AppError('UPLOAD_CONTENT_REJECTED');
}

/** The allowlisted format the name's extension and the claimed MIME type both point at, or 400. */
export function claimedFormat(allowlist: readonly Format[], originalName: string, claimedMime: string): Format {
  const extension = extname(originalName).slice(1).toLowerCase();
  const mime = claimedMime.split(';')[0]?.trim().toLowerCase() ?? '';
  const match = allowlist.find((candidate) => candidate.extensions.includes(extension) && candidate.mimeTypes.includes(mime));
  if (!match) throw rejected();
  return match;
}

/**
 * The spooled bytes must be what was claimed: the signature file-type detects (file-type cannot
 * recognise text formats, so those must be valid UTF-8 with no NUL and no markup a browser could
 * sniff), and no markup at the start of a format a browser may show (an HTML/GIF polyglot).
 * Documents and archives are only served as downloads; their XML parts are not markup to fear.
 */
export async function assertContentMatches(path: string, format: Format): Promise<void> {
  if (!format.download && MARKUP.test((await readHead(path)).toString('latin1'))) throw rejected();
  if (format.signature === 'text') {
    if (!(await isPlainUtf8(path))) throw rejected();
    return;
  }
  const detected = await fileTypeFromFile(path);
  if (detected?.ext !== format.signature) throw rejected();
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_WINDOW);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_WINDOW, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function isPlainUtf8(path: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path)) {
      if ((chunk as Buffer).includes(0)) return false;
      decoder.decode(chunk as Buffer, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}
