import { singleLineRaw } from '@school/http';
import { z } from 'zod';

/** Contract §4: `{ refreshToken }`. Issued tokens are 43 base64url characters; anything else cannot match. */
export const refreshBody = z.strictObject({
  refreshToken: singleLineRaw.min(1, 'is required').max(512, 'must be at most 512 characters'),
});

export type RefreshBody = z.output<typeof refreshBody>;
