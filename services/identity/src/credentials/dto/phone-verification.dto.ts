import { z } from 'zod';
import { e164Phone, sixDigitOtp } from './credential-fields.js';

export const requestPhoneVerificationBody = z.object({ phone: e164Phone }).strict();

export const confirmPhoneVerificationBody = z.object({ phone: e164Phone, otp: sixDigitOtp }).strict();

export type RequestPhoneVerificationBody = z.output<typeof requestPhoneVerificationBody>;
export type ConfirmPhoneVerificationBody = z.output<typeof confirmPhoneVerificationBody>;
