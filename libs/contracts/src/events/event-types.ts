/**
 * Every event of the product, `<producing context>.<what happened>` in snake case (contract §7
 * spells `feedback.submitted`). The routing key on the `events` exchange is the event type.
 */
export const EVENT_TYPES = {
  feedbackSubmitted: 'feedback.submitted',
  invitationCreated: 'identity.invitation_created',
  passwordResetRequested: 'identity.password_reset_requested',
  passwordChanged: 'identity.password_changed',
  newDeviceSignedIn: 'identity.new_device_signed_in',
  recoveryCodeUsed: 'identity.recovery_code_used',
  mfaDisabled: 'identity.mfa_disabled',
  emailVerificationRequested: 'identity.email_verification_requested',
  phoneVerificationRequested: 'identity.phone_verification_requested',
  userAddressChanged: 'identity.user_address_changed',
  userErased: 'identity.user_erased',
  accountDeletedNotice: 'identity.account_deleted_notice',
  auditEntryRecorded: 'audit.entry_recorded',
} as const;

export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

export const ALL_EVENT_TYPES: readonly EventType[] = Object.freeze(Object.values(EVENT_TYPES));

/**
 * Events whose outbox row names a person that nothing may keep once it reached the broker (contract
 * §11: no personal field of an erased account is left, outbox rows included): the relay deletes
 * their row at the broker's confirm instead of marking it sent.
 */
export const FORGOTTEN_ONCE_PUBLISHED: readonly EventType[] = Object.freeze([EVENT_TYPES.userErased, EVENT_TYPES.accountDeletedNotice]);

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (ALL_EVENT_TYPES as readonly string[]).includes(value);
}
