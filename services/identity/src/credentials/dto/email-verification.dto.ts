import { z } from 'zod';
import { emailAddress, presentedLinkToken } from './credential-fields.js';

export const resendEmailVerificationBody = z.object({ email: emailAddress }).strict();

export const confirmEmailVerificationBody = z.object({ token: presentedLinkToken }).strict();

export type ResendEmailVerificationBody = z.output<typeof resendEmailVerificationBody>;
export type ConfirmEmailVerificationBody = z.output<typeof confirmEmailVerificationBody>;
