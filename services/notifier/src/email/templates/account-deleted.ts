import type { EmailTemplates, RenderContext, RenderedEmail } from '../email-job.js';
import { compose, formatTime } from './layout.js';

export const ACCOUNT_DELETED_SUBJECT = 'Your account has been deleted';

/**
 * Contract §11: the one goodbye email of an erasure, to the address the account had. It names no
 * one (the account's name is gone by the time it is sent) and offers nothing to sign in to.
 */
export function accountDeletedEmail(data: EmailTemplates['account_deleted'], context: RenderContext): RenderedEmail {
  return compose(ACCOUNT_DELETED_SUBJECT, [
    { kind: 'text', text: 'Hello,' },
    { kind: 'text', text: `As requested through the school, your account and the personal data it held were erased on ${formatTime(data.erasedAt)}.` },
    { kind: 'text', text: 'Feedback you sent is kept without your name or contact details. No further email will be sent to this address because of that account.' },
    { kind: 'text', text: `If you did not ask for this, contact us at ${context.supportEmail}.` },
  ]);
}
