import { z } from 'zod';
import { EVENT_TYPES, type EventType } from './event-types.js';

/**
 * Payload of each event: what its email, SMS or consumer needs and nothing more. Producers validate
 * before writing the outbox row; consumers validate what they consume with the same schema. One-time
 * codes and link tokens travel only in the events whose message carries them.
 */

const timestamp = z.iso.datetime({ offset: true });
const email = z.email().max(255);
/** E.164, as identity validates it on input. */
const phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number');
const otp = z.string().regex(/^\d{6}$/, 'must be six digits');
const link = z.url({ protocol: /^https?$/ }).max(2048);
const personName = z.string().min(1).max(120).nullable();
const userId = z.string().min(1).max(64);

const feedbackSender = z.discriminatedUnion('type', [
  z.object({ type: z.literal('customer'), userId }).strict(),
  z.object({ type: z.literal('guest'), name: z.string().min(1).max(120), email, phone: z.string().max(40).nullable() }).strict(),
]);

export const feedbackSubmittedPayload = z
  .object({
    id: z.string().min(1).max(64),
    category: z.enum(['bug_report', 'feature_request', 'general_feedback']),
    subject: z.string().max(255).nullable(),
    message: z.string().min(1).max(5000),
    createdAt: timestamp,
    from: feedbackSender,
  })
  .strict();

export const invitationCreatedPayload = z.object({ userId, email, name: personName, role: z.string().min(1).max(32), inviteUrl: link, expiresAt: timestamp }).strict();

/** Forgot by email: the link and the code in one message; forgot by phone: the code by SMS (contract §4). */
export const passwordResetRequestedPayload = z
  .object({
    userId,
    name: personName,
    otp,
    expiresAt: timestamp,
    delivery: z.discriminatedUnion('channel', [z.object({ channel: z.literal('email'), email, resetUrl: link }).strict(), z.object({ channel: z.literal('sms'), phone }).strict()]),
  })
  .strict();

export const passwordChangedPayload = z.object({ userId, email, name: personName, changedAt: timestamp }).strict();

/** Contract §10: a login from a device the account never used; the device fields are null when the login did not send them. */
export const newDeviceSignedInPayload = z
  .object({
    userId,
    email,
    name: personName,
    deviceId: z.string().min(1).max(255).nullable(),
    deviceType: z.string().min(1).max(64).nullable(),
    deviceName: z.string().min(1).max(255).nullable(),
    signedInAt: timestamp,
  })
  .strict();

export const emailVerificationRequestedPayload = z.object({ userId, email, name: personName, verifyUrl: link, expiresAt: timestamp }).strict();

export const phoneVerificationRequestedPayload = z.object({ userId, phone, otp, expiresAt: timestamp }).strict();

const geographyId = z.number().int().positive().max(2_147_483_647);

/**
 * A user's address as committed (null: removed), for reference-data's record of which geography
 * rows are used. `version` grows with every address write of the user, so a consumer keeps the
 * highest it saw whatever the order of delivery; `claimId` is the GEOGRAPHY_CHECK claim the write
 * relied on (null when the address was removed), which the committed value now replaces.
 */
export const userAddressChangedPayload = z
  .object({
    userId,
    address: z.object({ provinceId: geographyId, districtId: geographyId, municipalityId: geographyId }).strict().nullable(),
    version: z.number().int().positive().max(2_147_483_647),
    claimId: z.uuid().nullable(),
  })
  .strict();

/**
 * Contract §11: an account was erased. It names the account by its publicId only (no personal
 * data travels); `version` is the payload's schema version, so a consumer can tell a later shape.
 */
export const userErasedPayload = z.object({ version: z.literal(1), userId, erasedAt: timestamp }).strict();

const auditTargetTypes = ['user', 'academic_session', 'province', 'district', 'municipality', 'school_profile', 'file'] as const;

/** `<resource>.<verb>` of every audited change and sign-in event (contract §13), spelled here only. */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'user.erase',
  'user.sessions_end',
  'user.mfa_reset',
  'academic_session.create',
  'academic_session.update',
  'academic_session.delete',
  'province.create',
  'province.update',
  'province.delete',
  'district.create',
  'district.update',
  'district.delete',
  'municipality.create',
  'municipality.update',
  'municipality.delete',
  'school_profile.update',
  'file.upload',
  'auth.login',
  'auth.login_failed',
  'auth.backoff',
  'auth.logout',
  'auth.password_reset',
  'auth.password_set',
  'auth.mfa_enabled',
  'auth.mfa_disabled',
  'auth.recovery_code_used',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_TARGET_TYPES = auditTargetTypes;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * Contract §13: one audit entry, recorded by the service that made the change in the change's own
 * transaction (its outbox), and kept by the audit store. The outbox event's id is the entry's id.
 * `changes` maps each changed field to `{ from, to }`; no password, token, secret or code ever.
 * The actor is named by publicId and role only (an access token carries no email, and the fewer
 * copies of an address the fewer to erase): the store, beside identity's accounts, adds the email.
 */
export const auditEntryRecordedPayload = z
  .object({
    occurredAt: timestamp,
    actor: z
      .object({ publicId: userId, role: z.string().min(1).max(32) })
      .strict()
      .nullable(),
    action: z.enum(AUDIT_ACTIONS),
    target: z
      .object({ type: z.enum(auditTargetTypes), id: z.string().min(1).max(512).nullable() })
      .strict()
      .nullable(),
    changes: z.record(z.string().max(64), z.object({ from: z.unknown(), to: z.unknown() }).strict()),
    ip: z.string().max(64).nullable(),
    userAgent: z.string().max(512).nullable(),
    requestId: z.string().max(128).nullable(),
  })
  .strict();

export const EVENT_SCHEMAS = {
  [EVENT_TYPES.feedbackSubmitted]: feedbackSubmittedPayload,
  [EVENT_TYPES.invitationCreated]: invitationCreatedPayload,
  [EVENT_TYPES.passwordResetRequested]: passwordResetRequestedPayload,
  [EVENT_TYPES.passwordChanged]: passwordChangedPayload,
  [EVENT_TYPES.newDeviceSignedIn]: newDeviceSignedInPayload,
  [EVENT_TYPES.emailVerificationRequested]: emailVerificationRequestedPayload,
  [EVENT_TYPES.phoneVerificationRequested]: phoneVerificationRequestedPayload,
  [EVENT_TYPES.userAddressChanged]: userAddressChangedPayload,
  [EVENT_TYPES.userErased]: userErasedPayload,
  [EVENT_TYPES.auditEntryRecorded]: auditEntryRecordedPayload,
} as const satisfies Record<EventType, z.ZodType>;

export type EventPayload<Type extends EventType> = z.output<(typeof EVENT_SCHEMAS)[Type]>;

/** An event as a consumer sees it once validated: a discriminated union on `type`. */
export type DomainEvent = { [Type in EventType]: { type: Type; payload: EventPayload<Type> } }[EventType];
