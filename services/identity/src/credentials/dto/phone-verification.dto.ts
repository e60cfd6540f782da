import { e164Phone } from '@school/http';
import { z } from 'zod';
import { sixDigitOtp } from './credential-fields.js';

export const requestPhoneVerificationBody = z.object({ phone: e164Phone }).strict();

export const confirmPhoneVerificationBody = z.object({ phone: e164Phone, otp: sixDigitOtp }).strict();

export type RequestPhoneVerificationBody = z.output<typeof requestPhoneVerificationBody>;
export type ConfirmPhoneVerificationBody = z.output<typeof confirmPhoneVerificationBody>;
