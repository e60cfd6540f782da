import { z } from 'zod';
import { DEFAULT_EXPIRES_IN_SECONDS, MAX_EXPIRES_IN_SECONDS, MIN_EXPIRES_IN_SECONDS } from '../../storage/url-signer.js';

/** Contract §8: `expiresIn` whole seconds, 60 to 604800, default 7200. */
export const expiresIn = z.coerce.number().int().min(MIN_EXPIRES_IN_SECONDS).max(MAX_EXPIRES_IN_SECONDS).default(DEFAULT_EXPIRES_IN_SECONDS);

export const signedUrlQuery = z.strictObject({ expiresIn });

export type SignedUrlQuery = z.infer<typeof signedUrlQuery>;

/** `GET /api/files/signed/*key?expires=&signature=`: checked by the signer, never by shape alone. */
export const signedFileQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });
