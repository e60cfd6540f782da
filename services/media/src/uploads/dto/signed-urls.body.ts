import { MAX_SIGNED_URL_KEYS } from '@school/http';
import { z } from 'zod';
import { expiresIn } from './signed-url.query.js';

/** Spec §4.4: `keys` (relativePaths) and an optional `expiresIn`. */
export const signedUrlsBody = z.strictObject({
  keys: z.array(z.string().min(1).max(512)).min(1).max(MAX_SIGNED_URL_KEYS),
  expiresIn,
});

export type SignedUrlsBody = z.infer<typeof signedUrlsBody>;
