import { z } from 'zod';
import { exportedFeedbackSchema, exportedFileSchema } from '../routes/account-export.js';
import { defineRpc } from './rpc-contract.js';

/**
 * What identity asks the services that keep a person's data when it makes that person's copy
 * (contract §11 export; decision 0008). The account is named by its publicId, the only id of it
 * the other services hold. The answers carry every row: no page, so no copy is ever partial.
 */

/** Asked by identity, answered by feedback: every submission the account sent signed in, oldest first. */
export const FEEDBACK_SENT_BY_ACCOUNT = defineRpc({
  name: 'feedback.account.submissions',
  request: z.object({ userId: z.uuid() }).strict(),
  answer: z.object({ submissions: z.array(exportedFeedbackSchema) }).strict(),
});

/** Asked by identity, answered by media: every file the account uploaded that is stored now, public ones included, oldest first. */
export const FILES_OF_ACCOUNT = defineRpc({
  name: 'media.account.files',
  request: z.object({ ownerId: z.uuid() }).strict(),
  answer: z.object({ files: z.array(exportedFileSchema) }).strict(),
});
