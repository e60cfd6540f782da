import { z } from 'zod';
import { expiresIn } from './signed-url.query.js';

/** Keys per batch: the spec leaves it open; a batch is a page of a client's list. */
export const MAX_KEYS_PER_BATCH = 100;

/** Spec §4.4: `keys` (relativePaths) and an optional `expiresIn`. */
export const signedUrlsBody = z.strictObject({
  keys: z.array(z.string().min(1).max(512)).min(1).max(MAX_KEYS_PER_BATCH),
  expiresIn,
});

export type SignedUrlsBody = z.infer<typeof signedUrlsBody>;
