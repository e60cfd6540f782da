import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of an object, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored object as read back: its bytes (or the requested range of them) as a stream, its whole size and content type. */
export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
}

/** Where a stored object is, before any byte is read: its size and content type. */
export interface ObjectInfo {
  size: number;
  contentType: string;
}

/** Where uploaded files live (contract §8), behind one interface whatever the driver. */
export interface Storage {
  /** Writes the whole stream (of `size` bytes, when known) under `key`; on failure nothing is left under `key`. */
  put(key: string, body: Readable, contentType: string, size?: number): Promise<{ size: number }>;
  /** Size and content type, or null when nothing is stored under `key`. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The object (only `range` of it when given), or null when nothing is stored under `key`. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** The Nest token of the configured Storage. */
export const STORAGE = Symbol('STORAGE');
