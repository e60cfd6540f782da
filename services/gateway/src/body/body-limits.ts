import type { BodyRule } from '../routes/route-table.js';

const MIB = 1024 * 1024;

/** JSON bodies of every route (contract §3: over it, 413 PAYLOAD_TOO_LARGE). */
export const JSON_BODY_LIMIT = 1 * MIB;

/** Per file on the customer upload route (spec §8, contract §8: "5 MB" means MiB). */
export const MOBILE_UPLOAD_MAX_FILE_BYTES = 5 * MIB;

/**
 * Room for boundaries and part headers. The gateway only bounds the stream; the exact per-file
 * checks (and their 413 UPLOAD_TOO_LARGE) stay in the media service.
 */
export const MULTIPART_OVERHEAD_BYTES = 1 * MIB;

export function mebibytes(value: number): number {
  return value * MIB;
}

/** The most bytes an upload request may stream through the gateway. */
export function uploadStreamLimit(rule: Extract<BodyRule, { kind: 'upload' }>, adminMaxFileBytes: number): number {
  const perFile = rule.surface === 'mobile' ? MOBILE_UPLOAD_MAX_FILE_BYTES : adminMaxFileBytes;
  return perFile * rule.maxFiles + MULTIPART_OVERHEAD_BYTES;
}
