import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Real files of each kind, generated here (no fixtures to go stale). */
export async function image(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG whose EXIF says "rotate 90° clockwise" (orientation 6). */
export async function rotatedJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

export function form(field: string, bytes: Buffer, filename: string, type: string): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return body;
}

/** A two-frame animated GIF. */
export async function animatedGif(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
    .gif()
    .toBuffer();
}

/**
 * A real, valid PNG of 7200 x 7200 pixels (51.8 megapixels, over contract §9's 40 and under
 * sharp's own default limit), one bit of grey per pixel, all black: it deflates to a few KiB, so
 * only a decoder that checks the declared size first refuses it before spending the memory.
 */
export function pixelBomb(side = 7200): Buffer {
  const row = Buffer.alloc(1 + Math.ceil(side / 8));
  const pixels = deflateSync(Buffer.concat(Array.from({ length: side }, () => row)), { level: 9 });
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real PNG with a tEXt chunk holding `text` right after its header (within a browser's sniffing window). */
export async function pngWithText(text: string): Promise<Buffer> {
  const png = await image('png', 4, 4);
  const afterHeader = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([png.subarray(0, afterHeader), pngChunk('tEXt', Buffer.from(`Comment\u0000${text}`, 'latin1')), png.subarray(afterHeader)]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A little-endian record of `size` bytes: each field its offset, width and value (zeros elsewhere). */
function record(size: number, fields: readonly (readonly [offset: number, width: 2 | 4, value: number])[]): Buffer {
  const bytes = Buffer.alloc(size);
  for (const [offset, width, value] of fields) {
    if (width === 2) bytes.writeUInt16LE(value, offset);
    else bytes.writeUInt32LE(value, offset);
  }
  return bytes;
}

/** A ZIP archive of stored (uncompressed) entries, as Office documents and .zip files are containers. */
export function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const crc = crc32(data);
    // What a local header (after its signature) and the entry's central record share: version needed, CRC, sizes, name length.
    const shared = record(26, [
      [0, 2, 20],
      [10, 4, crc],
      [14, 4, data.length],
      [18, 4, data.length],
      [22, 2, nameBytes.length],
    ]);
    const local = Buffer.concat([record(4, [[0, 4, 0x04034b50]]), shared]);
    // Signature and "made by" version before, the local header's offset at the end.
    const central = Buffer.concat([
      record(6, [
        [0, 4, 0x02014b50],
        [4, 2, 20],
      ]),
      shared,
      record(14, [[10, 4, offset]]),
    ]);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const count = Object.keys(entries).length;
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, count],
    [10, 2, count],
    [12, 4, directory.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';

/** A minimal Word document: the package parts a reader (and file-type) looks for. */
export const DOCX = zip({
  '[Content_Types].xml': CONTENT_TYPES,
  '_rels/.rels': '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
  'word/document.xml': '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>',
});

/** A plain archive. */
export const ZIP = zip({ 'notes/readme.md': '# notes\n' });

/** The start of an MP4: an ISO base media `ftyp` box (brand isom) and an empty `mdat`. */
export const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('mdat'),
]);
