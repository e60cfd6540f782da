import { e164Phone, emailAddress } from '@school/http';
import { z } from 'zod';

/** Where a reset is asked for: the account's email, or a phone (its code then goes by SMS). */
export type ForgotPasswordRequest = { by: 'email'; email: string } | { by: 'phone'; phone: string };

/** Forgot (contract §4): `{ email }` or `{ phone }`, exactly one of them. */
export const forgotPasswordBody = z
  .object({ email: emailAddress.optional(), phone: e164Phone.optional() })
  .strict()
  .refine((body) => (body.email === undefined) !== (body.phone === undefined), { message: 'send either email or phone' })
  .transform(({ email, phone }): ForgotPasswordRequest => (email !== undefined ? { by: 'email', email } : { by: 'phone', phone: phone ?? '' }));
