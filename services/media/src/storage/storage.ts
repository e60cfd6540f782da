import type { Readable } from 'node:stream';

/** A stored object as read back: its bytes as a stream, their count and the stored content type. */
export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
}

/** Where uploaded files live (contract §8), behind one interface whatever the driver. */
export interface Storage {
  /** Writes the whole stream under `key`; on failure nothing is left under `key`. */
  put(key: string, body: Readable, contentType: string): Promise<{ size: number }>;
  /** The object, or null when nothing is stored under `key`. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** The Nest token of the configured Storage. */
export const STORAGE = Symbol('STORAGE');
