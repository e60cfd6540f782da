import { AppError } from '@school/http';
import type { ByteRange } from '../storage/storage.js';

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * The one byte range of a `Range` header (RFC 9110 §14): undefined when absent or not a single
 * bytes range (the whole file is then served, as the RFC allows); 416 when it lies past the end.
 */
export function byteRange(header: string | undefined, size: number): ByteRange | undefined {
  const match = header ? SINGLE_RANGE.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const unsatisfiable = () => new AppError('RANGE_NOT_SATISFIABLE', undefined, { headers: { 'content-range': `bytes */${size}` } });
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) throw unsatisfiable();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) throw unsatisfiable();
  if (end < start) return undefined;
  return { start, end };
}
