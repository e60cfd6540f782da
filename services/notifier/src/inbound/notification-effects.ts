import { EVENT_TYPES, type DomainEvent, type EventPayload, type EventType } from '@school/contracts';
import type { NotifierConfig } from '../config.js';
import type { EmailQueue } from '../email/email.queue.js';
import { feedbackNotification } from '../live/live-notification.js';
import type { LiveNotificationHub } from '../live/live-notification.hub.js';
import type { SmsQueue } from '../sms/sms.queue.js';

/**
 * What an effect may use. Job ids derive from the message id, so enqueueing one event twice (a
 * redelivery after a crash before the inbox commit) adds nothing the second time.
 */
export interface EffectTools {
  email: EmailQueue;
  sms: SmsQueue;
  live: LiveNotificationHub;
  config: NotifierConfig;
  messageId: string;
  emailJob: string;
  smsJob: string;
}

type Effect<T extends EventType> = (payload: EventPayload<T>, tools: EffectTools) => Promise<void>;

/**
 * The events of the catalogue no notification comes of: a user's committed address is
 * reference-data's to consume, an audit entry the audit store's.
 */
type NotNotified = typeof EVENT_TYPES.userAddressChanged | typeof EVENT_TYPES.auditEntryRecorded;

export type NotifiedEventType = Exclude<EventType, NotNotified>;

/**
 * What each event the notifier consumes causes: the one place to add one. The queue bindings and
 * the `@EventPattern` handler derive from its keys, and a catalogue event that is neither here nor in
 * NotNotified does not compile.
 */
export const NOTIFICATION_EFFECTS: { readonly [T in NotifiedEventType]: Effect<T> } = {
  [EVENT_TYPES.feedbackSubmitted]: async (payload, { email, live, config, messageId, emailJob }) => {
    // Spec §6: to the configured shop inbox only, never to an address from the submission.
    await email.enqueue(emailJob, { template: 'feedback_submitted', to: config.SUPPORT_EMAIL, data: payload });
    await live.publish(feedbackNotification(messageId, payload));
  },
  [EVENT_TYPES.invitationCreated]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'invitation', to: payload.email, data: payload });
  },
  [EVENT_TYPES.passwordResetRequested]: async ({ delivery, name, otp, expiresAt }, { email, sms, emailJob, smsJob }) => {
    if (delivery.channel === 'email') {
      await email.enqueue(emailJob, { template: 'password_reset', to: delivery.email, data: { name, otp, expiresAt, resetUrl: delivery.resetUrl } });
    } else {
      await sms.enqueue(smsJob, { template: 'password_reset_code', to: delivery.phone, otp, expiresAt });
    }
  },
  [EVENT_TYPES.passwordChanged]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'password_changed', to: payload.email, data: payload });
  },
  [EVENT_TYPES.newDeviceSignedIn]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'new_device_sign_in', to: payload.email, data: payload });
  },
  [EVENT_TYPES.recoveryCodeUsed]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'recovery_code_used', to: payload.email, data: payload });
  },
  [EVENT_TYPES.mfaDisabled]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'mfa_disabled', to: payload.email, data: payload });
  },
  [EVENT_TYPES.emailVerificationRequested]: async (payload, { email, emailJob }) => {
    await email.enqueue(emailJob, { template: 'email_verification', to: payload.email, data: payload });
  },
  [EVENT_TYPES.phoneVerificationRequested]: async ({ phone, otp, expiresAt }, { sms, smsJob }) => {
    await sms.enqueue(smsJob, { template: 'phone_verification_code', to: phone, otp, expiresAt });
  },
  [EVENT_TYPES.accountDeletedNotice]: async (payload, { email, emailJob }) => {
    // Contract §11: the address of an erased account; once sent, nothing here keeps it (the inbox holds ids only).
    await email.enqueue(emailJob, { template: 'account_deleted', to: payload.email, data: payload }, { forgetOnceSent: true });
  },
  // Contract §11: the mails still queued for the erased account's address are dropped.
  [EVENT_TYPES.userErased]: async ({ emailDigest }, { email }) => {
    await email.forgetAddress(emailDigest, 'account_deleted');
  },
};

export const NOTIFIED_EVENT_TYPES = Object.freeze(Object.keys(NOTIFICATION_EFFECTS) as NotifiedEventType[]);

export function isNotified<E extends DomainEvent>(event: E): event is Extract<E, { type: NotifiedEventType }> {
  return Object.hasOwn(NOTIFICATION_EFFECTS, event.type);
}

/** Runs the event's effect (its type and payload correlated, which a call on the union cannot say). */
export function runEffect<T extends NotifiedEventType>(event: { type: T; payload: EventPayload<T> }, tools: EffectTools): Promise<void> {
  const effect: Effect<T> = NOTIFICATION_EFFECTS[event.type];
  return effect(event.payload, tools);
}
