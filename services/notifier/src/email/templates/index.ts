import { accountDeletedEmail } from './account-deleted.js';
import type { EmailJob, RenderContext, RenderedEmail } from '../email-job.js';
import { emailVerificationEmail } from './email-verification.js';
import { feedbackSubmittedEmail } from './feedback-submitted.js';
import { invitationEmail } from './invitation.js';
import { newDeviceSignInEmail } from './new-device-sign-in.js';
import { passwordChangedEmail } from './password-changed.js';
import { passwordResetEmail } from './password-reset.js';
import { mfaDisabledEmail, recoveryCodeUsedEmail } from './two-step-sign-in.js';

/** Every email the product sends, rendered as HTML and text. */
export function renderEmail(job: EmailJob, context: RenderContext): RenderedEmail {
  switch (job.template) {
    case 'invitation':
      return invitationEmail(job.data);
    case 'password_reset':
      return passwordResetEmail(job.data);
    case 'password_changed':
      return passwordChangedEmail(job.data, context);
    case 'new_device_sign_in':
      return newDeviceSignInEmail(job.data, context);
    case 'recovery_code_used':
      return recoveryCodeUsedEmail(job.data, context);
    case 'mfa_disabled':
      return mfaDisabledEmail(job.data, context);
    case 'email_verification':
      return emailVerificationEmail(job.data);
    case 'feedback_submitted':
      return feedbackSubmittedEmail(job.data);
    case 'account_deleted':
      return accountDeletedEmail(job.data, context);
  }
}
