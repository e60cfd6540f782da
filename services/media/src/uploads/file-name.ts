import { validationFailed } from '@school/http';

/** Contract §9: an original file name is kept in at most 255 UTF-8 bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * Control characters (C0 with NUL, DEL, C1), the line and paragraph separators, and every
 * bidirectional control: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), and
 * here also the marks LRM, RLM and ALM, which could make `photo‮gpj.exe` read as another name.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const UNSAFE_IN_FILE_NAME = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/;

/** The name as uploaded, or 400 VALIDATION_FAILED on the `file` field. */
export function assertFileName(name: string): void {
  if (Buffer.byteLength(name, 'utf8') > MAX_FILE_NAME_BYTES) throw invalid(`must be at most ${MAX_FILE_NAME_BYTES} bytes`);
  if (UNSAFE_IN_FILE_NAME.test(name)) throw invalid('must not contain control characters or bidirectional overrides');
}

function invalid(message: string) {
  return validationFailed([{ field: 'file', message: `The file name ${message}` }]);
}
