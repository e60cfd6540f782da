import { crc32, deflateSync } from 'node:zlib';

/**
 * A grey PNG of `width` x `height` with a gradient across, every row the same: small on the wire,
 * `width` x `height` pixels once decoded (what makes an image conversion cost memory and time).
 */
export function gradientPng(width: number, height: number): Buffer {
  const row = Buffer.alloc(width + 1);
  for (let x = 0; x < width; x += 1) row[x + 1] = x % 256;
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(typed.length + 8);
    framed.writeUInt32BE(data.length, 0);
    typed.copy(framed, 4);
    framed.writeUInt32BE(crc32(typed), typed.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
