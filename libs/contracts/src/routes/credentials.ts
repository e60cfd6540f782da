import { z } from 'zod';
import type { Surface } from '../auth/surfaces.js';
import { e164Phone, emailAddress } from '../http/contact-fields.js';
import { nullEnvelope } from '../http/envelopes.js';
import { refuseWithCode } from '../http/schema-error-code.js';
import { singleLineRaw } from '../http/text-fields.js';
import { strongPassword } from './auth.js';
import { type RouteSpec, routeManifest } from './route-spec.js';

/** Spec §2.2 / §8: an OTP is exactly six digits. */
export const sixDigitOtp = z.string().regex(/^\d{6}$/, 'must be exactly six digits');

/**
 * A link token as presented. Its format is not checked beyond a sane length: any other string is
 * simply unknown (AUTH_VERIFICATION_CODE_INVALID, spec §4.2 rule 4).
 */
export const LINK_TOKEN_MAX_LENGTH = 256;
export const presentedLinkToken = singleLineRaw.min(1, 'must not be empty').max(LINK_TOKEN_MAX_LENGTH, `must be at most ${LINK_TOKEN_MAX_LENGTH} characters`);

/** Where a reset is asked for: the account's email, or a phone (its code then goes by SMS). */
export type ForgotPasswordRequest = { by: 'email'; email: string } | { by: 'phone'; phone: string };

/** Forgot (contract §4): `{ email }` or `{ phone }`, exactly one of them (said to JSON Schema by `oneOf`, which it cannot read from the refinement). */
export const forgotPasswordBody = z
  .object({ email: emailAddress.optional(), phone: e164Phone.optional() })
  .strict()
  .refine((body) => (body.email === undefined) !== (body.phone === undefined), { message: 'send either email or phone' })
  .transform(({ email, phone }): ForgotPasswordRequest => (email !== undefined ? { by: 'email', email } : { by: 'phone', phone: phone ?? '' }))
  .meta({ oneOf: [{ required: ['email'] }, { required: ['phone'] }] });

/** A reset request once its branch is known and its fields are valid (spec §2.2). */
export type ResetPasswordBody =
  { branch: 'token'; token: string; password: string } | { branch: 'otp'; otp: string; email: string | undefined; phone: string | undefined; password: string };

/** The fields of spec §2.2 as sent: only these, each a string (null counts as not sent). */
const resetFieldsSent = z.strictObject({
  token: z.string().nullish().describe('the link token of a reset email or an invitation (token branch)'),
  otp: z.string().nullish().describe('the six-digit code (otp branch, with email or phone)'),
  email: z.string().nullish().describe("the account's email (otp branch)"),
  phone: z.string().nullish().describe("the account's verified phone, E.164 (otp branch)"),
  password: z.unknown().optional().meta({ type: 'string', description: '8-32 characters with a lower-case and an upper-case letter, a digit and a symbol' }),
});

const tokenBranch = z.object({ token: presentedLinkToken, password: strongPassword });

const otpBranch = z.object({
  otp: sixDigitOtp,
  email: emailAddress.optional(),
  phone: e164Phone.optional(),
  password: strongPassword,
});

/** An empty string is no value: it selects no branch. */
function given(value: string | null | undefined): value is string {
  return value !== undefined && value !== null && value !== '';
}

/** The branch's own fields, their issues reported as the body's; the other branch's fields are ignored. */
function branchFields<Schema extends z.ZodType>(schema: Schema, fields: unknown, ctx: z.RefinementCtx): z.output<Schema> | typeof z.NEVER {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ ...issue, input: undefined });
  return z.NEVER;
}

/**
 * The reset rules of spec §4.2 and contract §4, in this order:
 * 1. the body's shape: an object of the declared fields only, each a string -> VALIDATION_FAILED;
 * 2. the branch: `token` present -> token branch; else nothing of otp/email/phone ->
 *    AUTH_PASSWORD_RESET_INPUT_REQUIRED; email or phone without otp -> AUTH_OTP_REQUIRED; otp
 *    without email and phone -> AUTH_OTP_TARGET_REQUIRED (each its own code, refuseWithCode);
 * 3. the fields of the chosen branch: otp six digits, email, E.164 phone, the new password
 *    (required, 8-32 characters, strong) -> VALIDATION_FAILED. Fields of the other branch are ignored.
 * Identity then refuses a breached or guessable password (field `password`) before it looks at the
 * credential, so a malformed request never costs an attempt.
 */
export const resetPasswordBody = resetFieldsSent
  .transform((sent, ctx): ResetPasswordBody => {
    if (given(sent.token)) {
      const fields = branchFields(tokenBranch, { token: sent.token, password: sent.password }, ctx);
      return fields === z.NEVER ? z.NEVER : { branch: 'token', token: fields.token, password: fields.password };
    }
    const hasOtp = given(sent.otp);
    const hasEmail = given(sent.email);
    const hasPhone = given(sent.phone);
    if (!hasOtp && !hasEmail && !hasPhone) refuseWithCode(ctx, 'AUTH_PASSWORD_RESET_INPUT_REQUIRED');
    else if (!hasOtp) refuseWithCode(ctx, 'AUTH_OTP_REQUIRED');
    else if (!hasEmail && !hasPhone) refuseWithCode(ctx, 'AUTH_OTP_TARGET_REQUIRED');
    else {
      const fields = branchFields(otpBranch, { otp: sent.otp, password: sent.password, ...(hasEmail && { email: sent.email }), ...(hasPhone && { phone: sent.phone }) }, ctx);
      return fields === z.NEVER ? z.NEVER : { branch: 'otp', otp: fields.otp, email: fields.email, phone: fields.phone, password: fields.password };
    }
    return z.NEVER;
  })
  .meta({ anyOf: [{ required: ['token'] }, { required: ['otp', 'email'] }, { required: ['otp', 'phone'] }] });

export const resendEmailVerificationBody = z.object({ email: emailAddress }).strict();
export type ResendEmailVerificationBody = z.output<typeof resendEmailVerificationBody>;

export const confirmEmailVerificationBody = z.object({ token: presentedLinkToken }).strict();
export type ConfirmEmailVerificationBody = z.output<typeof confirmEmailVerificationBody>;

export const requestPhoneVerificationBody = z.object({ phone: e164Phone }).strict();
export type RequestPhoneVerificationBody = z.output<typeof requestPhoneVerificationBody>;

export const confirmPhoneVerificationBody = z.object({ phone: e164Phone, otp: sixDigitOtp }).strict();
export type ConfirmPhoneVerificationBody = z.output<typeof confirmPhoneVerificationBody>;

const RESET_RULES =
  'token present: token branch (reset link or invitation). Otherwise otp with email or phone: ' +
  'nothing of otp/email/phone is AUTH_PASSWORD_RESET_INPUT_REQUIRED, email or phone without otp AUTH_OTP_REQUIRED, ' +
  'otp without email and phone AUTH_OTP_TARGET_REQUIRED. password: 8-32 characters with a lower-case and an ' +
  'upper-case letter, a digit and a symbol.';

/** The public credential routes both surfaces serve identically (spec §4.1, §4.2, §5): forgot, reset, email verification resend and confirm. */
function publicCredentialRoutes(surface: Surface, prefix: string, tag: 'admin-auth' | 'mobile-auth') {
  const common = { auth: 'public', surface: { surface, check: 'token' }, tag } as const;
  return routeManifest({
    forgot: {
      ...common,
      method: 'POST',
      path: `${prefix}/password/forgot`,
      throttles: ['forgotPassword'],
      summary: 'Request a password reset (always the same 200)',
      description: 'Send exactly one of email or phone.',
      body: { json: forgotPasswordBody, example: { email: 'admin@example.com' } },
      response: { status: 200, description: 'Instructions sent if an account matches', schema: nullEnvelope },
    },
    reset: {
      ...common,
      method: 'POST',
      path: `${prefix}/password/reset`,
      throttles: ['resetPassword'],
      summary: 'Reset the password by link token or by otp',
      description: RESET_RULES,
      body: { json: resetPasswordBody, example: { otp: '123456', email: 'admin@example.com', password: 'N3w-Passw0rd!' } },
      response: { status: 200, description: 'Password reset', schema: nullEnvelope },
      errors: ['AUTH_PASSWORD_RESET_INPUT_REQUIRED', 'AUTH_OTP_REQUIRED', 'AUTH_OTP_TARGET_REQUIRED', 'AUTH_VERIFICATION_CODE_INVALID'],
    },
    resendEmailVerification: {
      ...common,
      method: 'POST',
      path: `${prefix}/email/verify/resend`,
      throttles: ['emailVerifyResend'],
      summary: 'Resend the email verification (always the same 200)',
      body: { json: resendEmailVerificationBody, example: { email: 'admin@example.com' } },
      response: { status: 200, description: 'Sent if the account needs verification', schema: nullEnvelope },
    },
    confirmEmailVerification: {
      ...common,
      method: 'POST',
      path: `${prefix}/email/verify/confirm`,
      summary: 'Confirm the email with the emailed link token',
      body: { json: confirmEmailVerificationBody },
      response: { status: 200, description: 'Email verified', schema: nullEnvelope },
      errors: ['AUTH_VERIFICATION_CODE_INVALID'],
    },
  });
}

/** Spec §4.1: the administrator surface's credential routes, phone verification (its tokens only) among them. */
export const ADMIN_CREDENTIAL_ROUTES = routeManifest({
  ...publicCredentialRoutes('admin', '/api/auth', 'admin-auth'),
  requestPhoneVerification: {
    method: 'POST',
    path: '/api/auth/phone/verify/request',
    auth: 'jwt',
    surface: { surface: 'admin', check: 'token' },
    tag: 'admin-auth',
    serviceLimits: ['phoneVerification'],
    summary: 'Send a phone verification code',
    body: { json: requestPhoneVerificationBody, example: { phone: '+9779812345678' } },
    response: { status: 200, description: 'Code sent', schema: nullEnvelope },
    errors: ['USER_PHONE_TAKEN'],
  },
  confirmPhoneVerification: {
    method: 'POST',
    path: '/api/auth/phone/verify/confirm',
    auth: 'jwt',
    surface: { surface: 'admin', check: 'token' },
    tag: 'admin-auth',
    summary: 'Confirm the phone with its code',
    body: { json: confirmPhoneVerificationBody, example: { phone: '+9779812345678', otp: '123456' } },
    response: { status: 200, description: 'Phone verified', schema: nullEnvelope },
    errors: ['AUTH_VERIFICATION_CODE_INVALID', 'USER_PHONE_TAKEN'],
  },
} satisfies Record<string, RouteSpec>);

/** Spec §4.2: the customer surface's credential routes. */
export const MOBILE_CREDENTIAL_ROUTES = publicCredentialRoutes('mobile', '/api/mobile/auth', 'mobile-auth');

/** The routes both surfaces share, as each surface's controller serves them. */
export type PublicCredentialRouteSpecs = ReturnType<typeof publicCredentialRoutes>;
