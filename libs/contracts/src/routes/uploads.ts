import { z } from 'zod';
import type { Surface } from '../auth/surfaces.js';
import { successEnvelope } from '../http/envelopes.js';
import { queryBoolean } from '../http/text-fields.js';
import { type RouteError, routeManifest, type RouteResponse } from './route-spec.js';
import type { ThrottlePolicyName } from './throttle-policies.js';
import { claimedTypes, CUSTOMER_UPLOAD_TYPES, SERVED_TYPES, UPLOAD_TYPES, type UploadType } from './upload-types.js';

/** The multipart fields spec §4.4 names: one upload, and a batch of 1 to MAX_FILES_PER_BATCH. */
export const FILE_FIELD = 'file';
export const FILES_FIELD = 'files';
export const MAX_FILES_PER_BATCH = 10;

/** Contract §8: signed URLs live 60 s to 7 days. */
export const MIN_EXPIRES_IN_SECONDS = 60;
export const MAX_EXPIRES_IN_SECONDS = 604_800;
export const DEFAULT_EXPIRES_IN_SECONDS = 7_200;

/** Keys in one batch of signed URLs (contract §9): media refuses more with 400, the gateway counts each against the signed-URL throttle. */
export const MAX_SIGNED_URL_KEYS = 100;

/** Contract §8: `expiresIn` whole seconds, 60 to 604800, default 7200. */
const expiresIn = z.coerce.number().int().min(MIN_EXPIRES_IN_SECONDS).max(MAX_EXPIRES_IN_SECONDS).default(DEFAULT_EXPIRES_IN_SECONDS);

export const signedUrlQuery = z.strictObject({ expiresIn });
export type SignedUrlQuery = z.output<typeof signedUrlQuery>;

/** Spec §4.4: `keys` (relativePaths) and an optional `expiresIn`. */
export const signedUrlsBody = z.strictObject({
  keys: z.array(z.string().min(1).max(512)).min(1).max(MAX_SIGNED_URL_KEYS),
  expiresIn,
});
export type SignedUrlsBody = z.output<typeof signedUrlsBody>;

/** `GET /api/files/signed/*key?expires=&signature=`: checked by the signer, never by shape alone. */
const signedFileQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });

const TYPES_OF_SURFACE: Record<Surface, readonly [UploadType, ...UploadType[]]> = { admin: UPLOAD_TYPES, mobile: CUSTOMER_UPLOAD_TYPES };

/** The upload query of a surface (spec §4.4, §4.5): `uploadType` from the surface's list (default image), `optimize` (default true). */
function uploadQuery(surface: Surface) {
  return z.object({
    uploadType: z.enum(TYPES_OF_SURFACE[surface]).default('image'),
    optimize: queryBoolean.default(true),
  });
}
export type UploadQuerySchema = ReturnType<typeof uploadQuery>;

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
export type UploadResultDto = z.input<typeof uploadResult>;

/** A URL of a stored file: signed (private) or permanent (public, expiresAt null). */
const fileUrl = z.object({ url: z.string(), expiresAt: z.number().int().nullable() });
export type FileUrlDto = z.input<typeof fileUrl>;

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

/** Each surface's upload types (spec §2.6): the media types a file part may claim. */
const CLAIMABLE = { admin: claimedTypes(UPLOAD_TYPES), mobile: claimedTypes(CUSTOMER_UPLOAD_TYPES) };

/** A stored file is served with the type it was stored under (contract §8). */
const fileStream = { contentTypes: SERVED_TYPES, schema: { type: 'string', format: 'binary' } };
const FILE_DESCRIPTION = 'The stored bytes, `Cache-Control: private, max-age=3600`; a Range header is answered 206.';
const PARTIAL: RouteResponse[] = [{ status: 206, description: 'The requested byte range (Content-Range)', raw: fileStream }];

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

interface SurfaceOptions {
  prefix: string;
  tag: 'uploads' | 'mobile-uploads';
  /** Customers' uploads also count against their storage quota. */
  quota: RouteError[];
  uploadThrottles: readonly ThrottlePolicyName[];
  /** Signed URLs of the customer surface count per ip, a batch per key (contract §9). */
  signedUrlThrottles?: readonly ThrottlePolicyName[];
}

/**
 * The routes both surfaces serve (spec §4.4, §4.5) under their prefix, only to tokens of the
 * surface (403 otherwise, contract §4), also answered without `/api` (contract §2).
 */
function surfaceUploadRoutes<S extends Surface>(surface: S, options: SurfaceOptions) {
  const { prefix, tag } = options;
  const common = { auth: 'jwt', surface: { surface, check: 'caller' }, alsoWithoutApiPrefix: true, tag } as const;
  return routeManifest({
    upload: {
      ...common,
      method: 'POST',
      path: prefix,
      throttles: options.uploadThrottles,
      summary: 'Upload one file (at most {maxFileBytes} bytes)',
      description: 'Extension, claimed MIME type and content must all match the uploadType allowlist; optimize converts images to WebP.',
      query: uploadQuery(surface),
      body: { upload: { surface, field: FILE_FIELD, maxFiles: 1, contentTypes: CLAIMABLE[surface] } },
      response: { status: 200, description: 'File uploaded', schema: successEnvelope(uploadResult) },
      errors: [...SURFACE, ...UPLOAD, ...options.quota],
    },
    signedUrl: {
      ...common,
      method: 'GET',
      path: `${prefix}/signed-url/*`,
      ...(options.signedUrlThrottles && { throttles: options.signedUrlThrottles }),
      summary: 'A viewable URL of a stored file (signed when private)',
      params: keyParams,
      query: signedUrlQuery,
      response: { status: 200, description: '"Signed URL generated", or "Local URL resolved" for public keys', schema: successEnvelope(fileUrl) },
      errors: [...SURFACE, ...KEY],
    },
    signedUrls: {
      ...common,
      method: 'POST',
      path: `${prefix}/signed-urls`,
      ...(options.signedUrlThrottles && { perKeyThrottles: options.signedUrlThrottles }),
      summary: 'Viewable URLs of several stored files, keyed by each requested key',
      body: { json: signedUrlsBody, example: { keys: ['public/avatar/3f2a9c.webp'], expiresIn: 3600 } },
      response: { status: 200, description: 'URLs resolved', schema: successEnvelope(z.record(z.string(), fileUrl)) },
      errors: [...SURFACE, ...KEY],
    },
    file: {
      ...common,
      method: 'GET',
      path: `${prefix}/file/*`,
      servesFiles: true,
      summary: 'The bytes of a stored file, proxied',
      description: FILE_DESCRIPTION,
      params: keyParams,
      response: { status: 200, description: 'The file', raw: fileStream },
      alsoAnswers: PARTIAL,
      errors: [...SURFACE, ...KEY, 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
    },
  });
}

const admin = surfaceUploadRoutes('admin', { prefix: '/api/upload', tag: 'uploads', quota: [], uploadThrottles: ['adminUpload'] });

/** Spec §4.4: uploads of the administrator surface (admin-surface tokens only, contract §4). */
export const ADMIN_UPLOAD_ROUTES = routeManifest({
  upload: admin.upload,
  uploadMultiple: {
    method: 'POST',
    path: '/api/upload/multiple',
    auth: 'jwt',
    surface: { surface: 'admin', check: 'caller' },
    throttles: ['adminUpload'],
    alsoWithoutApiPrefix: true,
    tag: 'uploads',
    summary: `Upload 1 to ${MAX_FILES_PER_BATCH} files (each at most {maxFileBytes} bytes)`,
    query: uploadQuery('admin'),
    body: { upload: { surface: 'admin', field: FILES_FIELD, maxFiles: MAX_FILES_PER_BATCH, contentTypes: CLAIMABLE.admin } },
    response: { status: 200, description: 'Files uploaded', schema: successEnvelope(z.array(uploadResult)) },
    errors: [...SURFACE, ...UPLOAD],
  },
  signedUrl: admin.signedUrl,
  signedUrls: admin.signedUrls,
  file: admin.file,
});

/** Spec §4.5: uploads of the customer surface (customer tokens only, contract §4), 5 MiB per file. */
export const MOBILE_UPLOAD_ROUTES = surfaceUploadRoutes('mobile', {
  prefix: '/api/mobile/uploads',
  tag: 'mobile-uploads',
  quota: ['UPLOAD_QUOTA_EXCEEDED'],
  uploadThrottles: ['mobileUpload'],
  signedUrlThrottles: ['mobileSignedUrl'],
});

/** The routes both surfaces share, as each surface's controller serves them. */
export type SurfaceUploadRoutes = ReturnType<typeof surfaceUploadRoutes<Surface>>;

/**
 * Contract §8, local driver: the file behind a signed URL, without a bearer token, until the URL
 * expires (403 after it, or for any tampered part); `public/` files at a permanent URL.
 */
export const SIGNED_FILE_ROUTES = routeManifest({
  serve: {
    method: 'GET',
    path: '/api/files/signed/*',
    auth: 'public',
    servesFiles: true,
    tag: 'files',
    summary: 'A file behind a signed URL (no bearer token; 403 once expired or tampered)',
    description: FILE_DESCRIPTION,
    params: keyParams,
    query: signedFileQuery,
    response: { status: 200, description: 'The file', raw: fileStream },
    alsoAnswers: PARTIAL,
    errors: [...KEY, 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
  },
});
