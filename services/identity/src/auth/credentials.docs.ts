import { e164Phone, emailAddress } from '@school/http';
import { type ApiTag, nullEnvelope, type RouteDoc } from '@school/openapi';
import { z } from 'zod';
import { newPassword } from '../passwords/password-policy.js';
import { presentedLinkToken, sixDigitOtp } from '../credentials/dto/credential-fields.js';
import { confirmEmailVerificationBody, resendEmailVerificationBody } from '../credentials/dto/email-verification.dto.js';
import { forgotPasswordBody } from '../credentials/dto/forgot-password.dto.js';
import { confirmPhoneVerificationBody, requestPhoneVerificationBody } from '../credentials/dto/phone-verification.dto.js';

/**
 * The reset body as a client sends it, from the field schemas of the two branches that
 * parseResetPassword checks in turn (spec §2.2); its branch rules are in the description.
 */
const resetPasswordBody = z
  .strictObject({
    token: presentedLinkToken.optional(),
    otp: sixDigitOtp.optional(),
    email: emailAddress.optional(),
    phone: e164Phone.optional(),
    password: newPassword,
  })
  .meta({ anyOf: [{ required: ['token'] }, { required: ['otp', 'email'] }, { required: ['otp', 'phone'] }] });

/** The refinement of forgotPasswordBody, which JSON Schema cannot read from zod: exactly one of email and phone. */
const forgotPasswordDocBody = forgotPasswordBody.meta({ oneOf: [{ required: ['email'] }, { required: ['phone'] }] });

const RESET_RULES =
  'token present: token branch (reset link or invitation). Otherwise otp with email or phone: ' +
  'nothing of otp/email/phone is AUTH_PASSWORD_RESET_INPUT_REQUIRED, email or phone without otp AUTH_OTP_REQUIRED, ' +
  'otp without email and phone AUTH_OTP_TARGET_REQUIRED. password: 8-32 characters with a lower-case and an ' +
  'upper-case letter, a digit and a symbol.';

/** The public credential routes both surfaces serve identically (spec §4.1, §4.2). */
export function publicCredentialRoutes(prefix: string, tag: ApiTag): RouteDoc[] {
  return [
    {
      method: 'POST',
      path: `${prefix}/password/forgot`,
      tag,
      summary: 'Request a password reset (always the same 200)',
      description: 'Send exactly one of email or phone.',
      body: { json: forgotPasswordDocBody, example: { email: 'admin@example.com' } },
      response: { status: 200, description: 'Instructions sent if an account matches', schema: nullEnvelope },
    },
    {
      method: 'POST',
      path: `${prefix}/password/reset`,
      tag,
      summary: 'Reset the password by link token or by otp',
      description: RESET_RULES,
      body: { json: resetPasswordBody, example: { otp: '123456', email: 'admin@example.com', password: 'N3w-Passw0rd!' } },
      response: { status: 200, description: 'Password reset', schema: nullEnvelope },
      errors: ['AUTH_PASSWORD_RESET_INPUT_REQUIRED', 'AUTH_OTP_REQUIRED', 'AUTH_OTP_TARGET_REQUIRED', 'AUTH_VERIFICATION_CODE_INVALID'],
    },
    {
      method: 'POST',
      path: `${prefix}/email/verify/resend`,
      tag,
      summary: 'Resend the email verification (always the same 200)',
      body: { json: resendEmailVerificationBody, example: { email: 'admin@example.com' } },
      response: { status: 200, description: 'Sent if the account needs verification', schema: nullEnvelope },
    },
    {
      method: 'POST',
      path: `${prefix}/email/verify/confirm`,
      tag,
      summary: 'Confirm the email with the emailed link token',
      body: { json: confirmEmailVerificationBody },
      response: { status: 200, description: 'Email verified', schema: nullEnvelope },
      errors: ['AUTH_VERIFICATION_CODE_INVALID'],
    },
  ];
}

/** Spec §4.1: phone verification, administrator surface only. */
export const PHONE_VERIFICATION_ROUTES: RouteDoc[] = [
  {
    method: 'POST',
    path: '/api/auth/phone/verify/request',
    tag: 'admin-auth',
    summary: 'Send a phone verification code',
    body: { json: requestPhoneVerificationBody, example: { phone: '+9779812345678' } },
    response: { status: 200, description: 'Code sent', schema: nullEnvelope },
    errors: ['USER_PHONE_TAKEN'],
  },
  {
    method: 'POST',
    path: '/api/auth/phone/verify/confirm',
    tag: 'admin-auth',
    summary: 'Confirm the phone with its code',
    body: { json: confirmPhoneVerificationBody, example: { phone: '+9779812345678', otp: '123456' } },
    response: { status: 200, description: 'Phone verified', schema: nullEnvelope },
    errors: ['AUTH_VERIFICATION_CODE_INVALID', 'USER_PHONE_TAKEN'],
  },
];
