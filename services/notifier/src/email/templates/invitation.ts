import type { EmailTemplates, RenderedEmail } from '../email-job.js';
import { compose, formatTime, greeting } from './layout.js';

export function invitationEmail(data: EmailTemplates['invitation']): RenderedEmail {
  return compose('You have been invited to School Commerce', [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `An administrator created a ${data.role} account for ${data.email}. Choose your password to start using it.` },
    { kind: 'action', label: 'Set your password', url: data.inviteUrl },
    { kind: 'text', text: `This invitation link works once and expires on ${formatTime(data.expiresAt)}.` },
    { kind: 'text', text: 'If you did not expect this invitation, you can ignore this email.' },
  ]);
}
