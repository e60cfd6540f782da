import type { EmailTemplates, RenderContext, RenderedEmail } from '../email-job.js';
import { compose, formatTime, greeting } from './layout.js';

/** Spec §4.2 rule 7: every successful reset emails the account holder. */
export function passwordChangedEmail(data: EmailTemplates['password_changed'], context: RenderContext): RenderedEmail {
  return compose('Your password was changed', [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `The password of your account ${data.email} was changed on ${formatTime(data.changedAt)}, and every session was signed out.` },
    { kind: 'text', text: `If this was not you, reset your password right away and contact us at ${context.supportEmail}.` },
  ]);
}
