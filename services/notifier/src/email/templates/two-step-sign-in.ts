import type { EmailTemplates, RenderContext, RenderedEmail } from '../email-job.js';
import { compose, formatTime, greeting } from './layout.js';

export const RECOVERY_CODE_USED_SUBJECT = 'A recovery code was used';
export const MFA_DISABLED_SUBJECT = 'Two-step sign-in was turned off';

/** Contract §12: a recovery code was spent on two-step sign-in. */
export function recoveryCodeUsedEmail(data: EmailTemplates['recovery_code_used'], context: RenderContext): RenderedEmail {
  return compose(RECOVERY_CODE_USED_SUBJECT, [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `A recovery code of your account ${data.email} was used to sign in on ${formatTime(data.usedAt)}. It no longer works.` },
    { kind: 'text', text: `Recovery codes left: ${data.recoveryCodesLeft}. You can replace them all from your two-step sign-in settings.` },
    { kind: 'text', text: `If this was not you, change your password right away and contact us at ${context.supportEmail}.` },
  ]);
}

/** Contract §12: two-step sign-in was turned off, by the holder or by an administrator. */
export function mfaDisabledEmail(data: EmailTemplates['mfa_disabled'], context: RenderContext): RenderedEmail {
  const who = data.by === 'admin' ? 'by an administrator' : 'from your account';
  return compose(MFA_DISABLED_SUBJECT, [
    { kind: 'text', text: greeting(data.name) },
    { kind: 'text', text: `Two-step sign-in of your account ${data.email} was turned off ${who} on ${formatTime(data.disabledAt)}. Signing in now takes your password only.` },
    { kind: 'text', text: `If this was not you, change your password right away and contact us at ${context.supportEmail}.` },
  ]);
}
