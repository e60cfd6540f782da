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
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

export function form(field: string, bytes: Buffer, filename: string, type: string): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return body;
}
