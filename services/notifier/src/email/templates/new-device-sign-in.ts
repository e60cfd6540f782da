import type { EmailTemplates, RenderContext, RenderedEmail } from '../email-job.js';
import { compose, type FieldValue, formatTime, greeting } from './layout.js';

export const NEW_DEVICE_SUBJECT = 'New sign-in to your account';

/** What the login sent is the client's text, never ours: quoted, cut, and no link (contract §10). */
const shown = (sent: string | null): FieldValue => (sent === null ? 'not given' : { quoted: sent });

/** Contract §10: a login from a device the account never signed in from before. */
export function newDeviceSignInEmail(data: EmailTemplates['new_device_sign_in'], context: RenderContext): RenderedEmail {
  return compose(NEW_DEVICE_SUBJECT, [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `Your account ${data.email} was signed in to from a device it had not used before.` },
    {
      kind: 'fields',
      fields: [
        ['Device name', shown(data.deviceName)],
        ['Device type', shown(data.deviceType)],
        ['Time', formatTime(data.signedInAt)],
      ],
    },
    { kind: 'text', text: 'If this was you, there is nothing to do.' },
    {
      kind: 'text',
      text: `If this was not you, reset your password right away, end the sessions you do not recognise in your account's sessions list, and contact us at ${context.supportEmail}.`,
    },
  ]);
}
