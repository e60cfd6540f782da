import { emailAddress } from '@school/http';
import { z } from 'zod';
import { presentedLinkToken } from './credential-fields.js';

export const resendEmailVerificationBody = z.object({ email: emailAddress }).strict();

export const confirmEmailVerificationBody = z.object({ token: presentedLinkToken }).strict();

export type ResendEmailVerificationBody = z.output<typeof resendEmailVerificationBody>;
export type ConfirmEmailVerificationBody = z.output<typeof confirmEmailVerificationBody>;
