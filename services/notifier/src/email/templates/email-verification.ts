import type { EmailTemplates, RenderedEmail } from '../email-job.js';
import { compose, formatTime, greeting } from './layout.js';

export function emailVerificationEmail(data: EmailTemplates['email_verification']): RenderedEmail {
  return compose('Verify your email address', [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `Please confirm that ${data.email} is your email address.` },
    { kind: 'action', label: 'Verify email address', url: data.verifyUrl },
    { kind: 'text', text: `The link expires on ${formatTime(data.expiresAt)}.` },
  ]);
}
