import { z } from 'zod';
import { publicIdParams, timestamp } from '../http/envelopes.js';
import { FEEDBACK_CATEGORIES } from './feedback.js';
import { profileSchema, storedAddressSchema } from './profile.js';
import { routeManifest, type RouteResponse } from './route-spec.js';
import { ownSessionSchema, sessionSchema } from './sessions.js';
import { UPLOAD_TYPES } from './upload-types.js';

/** Contract §11: a person's copy of their data, at most this many per account per hour over the three routes, whoever asks. */
export const ACCOUNT_EXPORTS_PER_HOUR = 5;

/** A submission the account sent signed in (contract §11): nothing of the request that carried it (ip, device, user agent). */
export const exportedFeedbackSchema = z
  .object({
    id: z.uuid(),
    category: z.enum(FEEDBACK_CATEGORIES),
    subject: z.string().nullable(),
    message: z.string(),
    createdAt: timestamp,
  })
  .strict();
export type ExportedFeedbackDto = z.input<typeof exportedFeedbackSchema>;

/** A file the account uploaded that is stored now, public ones included (contract §11); `key` is the storage key clients keep. */
export const exportedFileSchema = z
  .object({
    key: z.string(),
    uploadType: z.enum(UPLOAD_TYPES),
    originalName: z.string(),
    mimeType: z.string(),
    size: z.number().int().min(0).describe('bytes stored, after any optimisation'),
    createdAt: timestamp,
  })
  .strict();
export type ExportedFileDto = z.input<typeof exportedFileSchema>;

const exportedAddressSchema = storedAddressSchema.strict();

function exportSchema<Session extends z.ZodType>(session: Session) {
  return z
    .object({
      exportedAt: timestamp.describe('when the copy was made (UTC); its date names the file'),
      profile: profileSchema.describe('the `me` profile'),
      address: exportedAddressSchema.nullable().describe('null when none is stored'),
      sessions: z.array(session).describe('the live sessions, newest first'),
      feedback: z.array(exportedFeedbackSchema).describe('every submission the account sent signed in, oldest first'),
      files: z.array(exportedFileSchema).describe('every file the account uploaded that is stored now, public ones included, oldest first'),
    })
    .strict();
}

/** The body of the self routes: `current` marks the calling session. */
export const ownAccountExportSchema = exportSchema(ownSessionSchema);
export type OwnAccountExportDto = z.input<typeof ownAccountExportSchema>;

/** The body of the administrator's route: sessions without `current`. */
export const accountExportSchema = exportSchema(sessionSchema);
export type AccountExportDto = z.input<typeof accountExportSchema>;

/** `account-export-<YYYY-MM-DD>.json`, the UTC date of `exportedAt`. */
export function accountExportFileName(exportedAt: Date): string {
  return `account-export-${exportedAt.toISOString().slice(0, 10)}.json`;
}

const FILE_NAME_PATTERN = '^attachment; filename="account-export-\\d{4}-\\d{2}-\\d{2}\\.json"$';

function exportResponse<Schema extends z.ZodType>(schema: Schema) {
  return {
    status: 200,
    description: 'The copy, as a JSON file (no envelope)',
    schema,
    headers: {
      'Content-Disposition': { description: 'A download named after the UTC date of `exportedAt`', schema: { type: 'string', pattern: FILE_NAME_PATTERN } },
      'Cache-Control': { description: 'Never kept by a cache', schema: { type: 'string', enum: ['no-store'] } },
    },
  } satisfies RouteResponse;
}

const DESCRIPTION =
  `Contract §11: the profile, the stored address, the live sessions, the feedback sent signed in and the files stored now. ` +
  `Nothing of another person, no password hash, token or secret. At most ${ACCOUNT_EXPORTS_PER_HOUR} copies of one account an hour, ` +
  `counted over the three export routes whoever asks (429 beyond); 503 when feedback or media does not answer in time.`;

/** Contract §11, a person's copy of their data: their own on either surface, any account's for an administrator. */
export const ACCOUNT_EXPORT_ROUTES = routeManifest({
  exportOwnAdmin: {
    method: 'GET',
    path: '/api/auth/account/export',
    auth: 'jwt',
    surface: { surface: 'admin', check: 'token' },
    serviceLimits: ['accountExport'],
    noStore: true,
    tag: 'admin-auth',
    summary: 'A copy of the caller’s data (administrator surface)',
    description: DESCRIPTION,
    response: exportResponse(ownAccountExportSchema),
  },
  exportOwnMobile: {
    method: 'GET',
    path: '/api/mobile/account/export',
    auth: 'jwt',
    surface: { surface: 'mobile', check: 'token' },
    serviceLimits: ['accountExport'],
    noStore: true,
    tag: 'mobile-auth',
    summary: 'A copy of the caller’s data (mobile surface)',
    description: DESCRIPTION,
    response: exportResponse(ownAccountExportSchema),
  },
  exportUser: {
    method: 'GET',
    path: '/api/users/:publicId/export',
    auth: 'jwt',
    permissions: ['Users_READ'],
    serviceLimits: ['accountExport'],
    noStore: true,
    tag: 'users',
    summary: 'A copy of an account’s data, live or soft-deleted',
    description: `${DESCRIPTION} Sessions carry no \`current\`.`,
    params: publicIdParams,
    response: exportResponse(accountExportSchema),
    errors: ['USER_NOT_FOUND'],
  },
});
