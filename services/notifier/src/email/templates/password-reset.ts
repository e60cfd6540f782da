import type { EmailTemplates, RenderedEmail } from '../email-job.js';
import { compose, formatTime, greeting } from './layout.js';

/** Contract §4: the forgot email carries the link and the code in one message. */
export function passwordResetEmail(data: EmailTemplates['password_reset']): RenderedEmail {
  return compose('Reset your password', [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: 'We received a request to reset the password of your account. Open the link below:' },
    { kind: 'action', label: 'Reset your password', url: data.resetUrl },
    { kind: 'text', text: 'or enter this code in the app:' },
    { kind: 'code', code: data.otp },
    { kind: 'text', text: `The link and the code expire on ${formatTime(data.expiresAt)} and can be used once.` },
    { kind: 'text', text: 'If you did not ask for this, ignore this email: your password stays unchanged.' },
  ]);
}
