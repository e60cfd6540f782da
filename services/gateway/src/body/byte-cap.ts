import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '@school/http';

/** Passes bytes through until more than `limit` went by, then fails with 413 UPLOAD_TOO_LARGE. */
export class ByteCap extends Transform {
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      callback(uploadTooLarge());
      return;
    }
    callback(null, chunk);
  }
}

export function uploadTooLarge(): AppError {
  return new AppError('UPLOAD_TOO_LARGE');
}
