/** Spec §2.6 UploadResultDto. */
export interface UploadResultDto {
  filename: string;
  originalName: string;
  mimeType: string;
  size: number;
  relativePath: string;
  url: string;
  /** Epoch milliseconds; null for public files. */
  expiresAt: number | null;
}

/** A URL of a stored file: signed (private) or permanent (public, expiresAt null). */
export interface FileUrlDto {
  url: string;
  expiresAt: number | null;
}
