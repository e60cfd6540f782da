/** Spec §2.6 UploadType and CustomerUploadType. */
export const UPLOAD_TYPES = ['image', 'avatar', 'landing', 'thumbnail', 'file', 'video'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const CUSTOMER_UPLOAD_TYPES = ['avatar', 'image', 'file'] as const satisfies readonly UploadType[];

/** Spec §2.6: these types are stored under `public/` with permanent URLs. */
const PUBLIC_TYPES: ReadonlySet<UploadType> = new Set(['avatar', 'landing', 'thumbnail']);

export function isPublicType(type: UploadType): boolean {
  return PUBLIC_TYPES.has(type);
}

/**
 * One accepted format: its extensions, the MIME types a client may claim for it, and the
 * signature file-type must detect (`text`: no signature, checked as UTF-8 text instead).
 */
export interface Format {
  name: string;
  extensions: readonly string[];
  mimeTypes: readonly string[];
  signature: string;
  /** Re-encoded to WebP when optimize is on. */
  image: boolean;
  /** Documents and archives are only ever offered as downloads, never shown in place. */
  download: boolean;
}

const format = (name: string, extensions: string[], mimeTypes: string[], signature: string, kind: 'image' | 'inline' | 'download' = 'inline'): Format => ({
  name,
  extensions,
  mimeTypes,
  signature,
  image: kind === 'image',
  download: kind === 'download',
});

const JPEG = format('jpeg', ['jpg', 'jpeg'], ['image/jpeg'], 'jpg', 'image');
const PNG = format('png', ['png'], ['image/png'], 'png', 'image');
const WEBP = format('webp', ['webp'], ['image/webp'], 'webp', 'image');
const GIF = format('gif', ['gif'], ['image/gif'], 'gif', 'image');
const PDF = format('pdf', ['pdf'], ['application/pdf'], 'pdf', 'download');
const DOCX = format('docx', ['docx'], ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'], 'docx', 'download');
const XLSX = format('xlsx', ['xlsx'], ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], 'xlsx', 'download');
const ZIP = format('zip', ['zip'], ['application/zip', 'application/x-zip-compressed'], 'zip', 'download');
const CSV = format('csv', ['csv'], ['text/csv'], 'text');
const TXT = format('txt', ['txt'], ['text/plain'], 'text');
const MP4 = format('mp4', ['mp4'], ['video/mp4'], 'mp4');
const WEBM = format('webm', ['webm'], ['video/webm'], 'webm');
const MOV = format('mov', ['mov'], ['video/quicktime'], 'mov');

/** Contract §8: the allowlist of each upload type. SVG and HTML are in none of them. */
export const ALLOWLISTS: Record<UploadType, readonly Format[]> = {
  image: [JPEG, PNG, WEBP, GIF],
  thumbnail: [JPEG, PNG, WEBP, GIF],
  landing: [JPEG, PNG, WEBP, GIF],
  avatar: [JPEG, PNG, WEBP],
  file: [PDF, DOCX, XLSX, CSV, TXT, ZIP],
  video: [MP4, WEBM, MOV],
};

/** The media types a file of these upload types may claim on upload (contract §8). */
export function claimedTypes(types: readonly UploadType[]): string[] {
  return [...new Set(types.flatMap((type) => ALLOWLISTS[type].flatMap((format) => format.mimeTypes)))];
}

/** The media type a file of this format is stored and served with. */
export function storedType(format: Format): string {
  return format.mimeTypes[0] ?? 'application/octet-stream';
}

/** The media types stored files are served with (optimised images are WebP, one of them). */
export const SERVED_TYPES: readonly string[] = [...new Set(Object.values(ALLOWLISTS).flatMap((formats) => formats.map(storedType)))];
