import type { PipeTransform } from '@nestjs/common';
import { e164Phone, emailAddress, presentedLinkToken, sixDigitOtp } from '@school/contracts';
import { AppError, validate } from '@school/http';
import { z } from 'zod';
import { newPassword } from '../../passwords/password-policy.js';

/** A reset request once its branch is known and its fields are valid. */
export type ResetPasswordCommand =
  { branch: 'token'; token: string; password: string } | { branch: 'otp'; otp: string; email: string | undefined; phone: string | undefined; password: string };

/** The fields of spec §2.2 as sent: only these, each a string (null counts as not sent). */
const resetShape = z
  .object({
    token: z.string().nullish(),
    otp: z.string().nullish(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    password: z.unknown().optional(),
  })
  .strict();

const tokenBranch = z.object({ token: presentedLinkToken, password: newPassword });

const otpBranch = z.object({
  otp: sixDigitOtp,
  email: emailAddress.optional(),
  phone: e164Phone.optional(),
  password: newPassword,
});

/** An empty string is no value: it selects no branch. */
function given(value: string | null | undefined): value is string {
  return value !== undefined && value !== null && value !== '';
}

/**
 * The reset rules of spec §4.2 and contract §4, in this order:
 * 1. the body's shape: an object of the declared fields only, each a string -> VALIDATION_FAILED;
 * 2. the branch: `token` present -> token branch; else nothing of otp/email/phone ->
 *    AUTH_PASSWORD_RESET_INPUT_REQUIRED; email or phone without otp -> AUTH_OTP_REQUIRED; otp
 *    without email and phone -> AUTH_OTP_TARGET_REQUIRED;
 * 3. the fields of the chosen branch: otp six digits, email, E.164 phone, the new password
 *    (required, 8-32 characters, strong) -> VALIDATION_FAILED. Fields of the other branch are ignored.
 * The credential itself is looked at only after all of this, so a malformed request never costs an attempt.
 */
export function parseResetPassword(body: unknown): ResetPasswordCommand {
  const sent = validate(resetShape, body ?? {});
  if (given(sent.token)) {
    const { token, password } = validate(tokenBranch, { token: sent.token, password: sent.password });
    return { branch: 'token', token, password };
  }
  const hasOtp = given(sent.otp);
  const hasEmail = given(sent.email);
  const hasPhone = given(sent.phone);
  if (!hasOtp && !hasEmail && !hasPhone) throw new AppError('AUTH_PASSWORD_RESET_INPUT_REQUIRED');
  if (!hasOtp) throw new AppError('AUTH_OTP_REQUIRED');
  if (!hasEmail && !hasPhone) throw new AppError('AUTH_OTP_TARGET_REQUIRED');
  const fields = validate(otpBranch, {
    otp: sent.otp,
    password: sent.password,
    ...(hasEmail && { email: sent.email }),
    ...(hasPhone && { phone: sent.phone }),
  });
  return { branch: 'otp', otp: fields.otp, email: fields.email, phone: fields.phone, password: fields.password };
}

/** `@Body(ResetPasswordPipe)`: the rules above at the edge. */
export class ResetPasswordPipe implements PipeTransform<unknown, ResetPasswordCommand> {
  transform(body: unknown): ResetPasswordCommand {
    return parseResetPassword(body);
  }
}
