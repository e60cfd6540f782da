import type { EventPayload } from '@school/contracts';

/** What each email template renders from. */
export interface EmailTemplates {
  invitation: EventPayload<'identity.invitation_created'>;
  password_reset: { name: string | null; otp: string; expiresAt: string; resetUrl: string };
  password_changed: EventPayload<'identity.password_changed'>;
  new_device_sign_in: EventPayload<'identity.new_device_signed_in'>;
  recovery_code_used: EventPayload<'identity.recovery_code_used'>;
  mfa_disabled: EventPayload<'identity.mfa_disabled'>;
  email_verification: EventPayload<'identity.email_verification_requested'>;
  feedback_submitted: EventPayload<'feedback.submitted'>;
  account_deleted: EventPayload<'identity.account_deleted_notice'>;
}

export type EmailTemplate = keyof EmailTemplates;

/** Data of a `notification.send_email` job: rendered by the worker at send time. */
export type EmailJob = { [Template in EmailTemplate]: { template: Template; to: string; data: EmailTemplates[Template] } }[EmailTemplate];

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface RenderContext {
  supportEmail: string;
}
