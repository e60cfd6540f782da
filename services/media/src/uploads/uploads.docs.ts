import { type RouteError, type RouteDoc, successEnvelope } from '@school/openapi';
import { z } from 'zod';
import { signedFileQuery, signedUrlQuery } from './dto/signed-url.query.js';
import { signedUrlsBody } from './dto/signed-urls.body.js';
import { uploadQuerySchema } from './dto/upload.query.js';
import { FILE_FIELD, FILES_FIELD, MAX_FILES_PER_BATCH } from './multipart-file.js';
import type { UploadLimits } from './upload-limits.js';
import { CUSTOMER_UPLOAD_TYPES, claimedTypes, SERVED_TYPES, UPLOAD_TYPES } from './upload-types.js';

/** Each surface's upload types (spec §2.6): the media types a file part may claim. */
const CLAIMABLE = { admin: claimedTypes(UPLOAD_TYPES), mobile: claimedTypes(CUSTOMER_UPLOAD_TYPES) };

/** Spec §2.6 UploadResultDto. */
const uploadResult = z.object({
  filename: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  relativePath: z.string().describe('store this, never the url'),
  url: z.string(),
  expiresAt: z.number().int().nullable().describe('epoch milliseconds; null for public files'),
});
const fileUrl = z.object({ url: z.string(), expiresAt: z.number().int().nullable() });

/** A stored relativePath: the rest of the path, slashes included. */
const keyParams = z.object({
  key: z
    .string()
    .min(1)
    .describe(
      'The stored relativePath, which contains slashes (uploads/image/<userId>/<filename>, public/avatar/<filename>): ' +
        'everything after the route’s prefix is the key, sent with its slashes as they are or percent-encoded (%2F).',
    )
    .meta({ examples: ['public/avatar/3f2a9c.webp', 'uploads/image/0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b/5b1e07.webp'] }),
});

/** A stored file is served with the type it was stored under (contract §8). */
const fileStream = { contentTypes: SERVED_TYPES, schema: { type: 'string', format: 'binary' } };
const FILE_DESCRIPTION = 'The stored bytes, `Cache-Control: private, max-age=3600`; a Range header is answered 206.';
const PARTIAL = [{ status: 206, description: 'The requested byte range (Content-Range)', raw: fileStream }];

/** The token surface check of every upload route (contract §4), and the checks of a key. */
const SURFACE: RouteError[] = ['PERMISSION_INSUFFICIENT'];
const KEY: RouteError[] = ['VALIDATION_FAILED', 'UPLOAD_FORBIDDEN'];
/** VALIDATION_FAILED: a malformed body or file name; SERVICE_UNAVAILABLE: no image conversion free in time (contract §9). */
const UPLOAD: RouteError[] = [
  'VALIDATION_FAILED',
  'UPLOAD_FILE_REQUIRED',
  'UPLOAD_TYPE_INVALID',
  'UPLOAD_CONTENT_REJECTED',
  'UPLOAD_TOO_LARGE',
  'STORAGE_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
];
/** Customers' uploads also count against their storage quota. */
const QUOTA: Record<'admin' | 'mobile', RouteError[]> = { admin: [], mobile: ['UPLOAD_QUOTA_EXCEEDED'] };

/** The routes both surfaces serve (spec §4.4, §4.5) under `prefix`. */
function surfaceRoutes(prefix: string, surface: 'admin' | 'mobile', maxFileBytes: number): RouteDoc[] {
  const tag = surface === 'admin' ? 'uploads' : 'mobile-uploads';
  const routes: RouteDoc[] = [
    {
      method: 'POST',
      path: prefix,
      tag,
      summary: `Upload one file (at most ${maxFileBytes} bytes)`,
      description: 'Extension, claimed MIME type and content must all match the uploadType allowlist; optimize converts images to WebP.',
      query: uploadQuerySchema(surface),
      body: { multipart: { field: FILE_FIELD, maxFiles: 1, maxFileBytes, contentTypes: CLAIMABLE[surface] } },
      response: { status: 200, description: 'File uploaded', schema: successEnvelope(uploadResult) },
      errors: [...SURFACE, ...UPLOAD, ...QUOTA[surface]],
    },
    {
      method: 'GET',
      path: `${prefix}/signed-url/{key}`,
      tag,
      summary: 'A viewable URL of a stored file (signed when private)',
      params: keyParams,
      query: signedUrlQuery,
      response: { status: 200, description: '"Signed URL generated", or "Local URL resolved" for public keys', schema: successEnvelope(fileUrl) },
      errors: [...SURFACE, ...KEY],
    },
    {
      method: 'POST',
      path: `${prefix}/signed-urls`,
      tag,
      summary: 'Viewable URLs of several stored files, keyed by each requested key',
      body: { json: signedUrlsBody, example: { keys: ['public/avatar/3f2a9c.webp'], expiresIn: 3600 } },
      response: { status: 200, description: 'URLs resolved', schema: successEnvelope(z.record(z.string(), fileUrl)) },
      errors: [...SURFACE, ...KEY],
    },
    {
      method: 'GET',
      path: `${prefix}/file/{key}`,
      tag,
      summary: 'The bytes of a stored file, proxied',
      description: FILE_DESCRIPTION,
      params: keyParams,
      response: { status: 200, description: 'The file', raw: fileStream },
      alsoAnswers: PARTIAL,
      errors: [...SURFACE, ...KEY, 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
    },
  ];
  return routes.map((route) => ({ ...route, tokenSurface: surface }));
}

/** Spec §4.4, §4.5 and contract §8; the admin size limit is the service's configuration. */
export function uploadRoutes(limits: UploadLimits): RouteDoc[] {
  return [
    ...surfaceRoutes('/api/upload', 'admin', limits.adminMaxFileBytes),
    {
      method: 'POST',
      path: '/api/upload/multiple',
      tag: 'uploads',
      summary: `Upload 1 to ${MAX_FILES_PER_BATCH} files (each at most ${limits.adminMaxFileBytes} bytes)`,
      query: uploadQuerySchema('admin'),
      body: { multipart: { field: FILES_FIELD, maxFiles: MAX_FILES_PER_BATCH, maxFileBytes: limits.adminMaxFileBytes, contentTypes: CLAIMABLE.admin } },
      response: { status: 200, description: 'Files uploaded', schema: successEnvelope(z.array(uploadResult)) },
      errors: [...SURFACE, ...UPLOAD],
      tokenSurface: 'admin',
    },
    ...surfaceRoutes('/api/mobile/uploads', 'mobile', limits.mobileMaxFileBytes),
    {
      method: 'GET',
      path: '/api/files/signed/{key}',
      tag: 'files',
      summary: 'A file behind a signed URL (no bearer token; 403 once expired or tampered)',
      description: FILE_DESCRIPTION,
      params: keyParams,
      query: signedFileQuery,
      response: { status: 200, description: 'The file', raw: fileStream },
      alsoAnswers: PARTIAL,
      errors: [...KEY, 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
    },
  ];
}
