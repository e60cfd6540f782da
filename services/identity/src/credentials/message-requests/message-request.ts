import { CredentialPurpose } from '../credential-state.js';

/**
 * A message a public route was asked for, as it was asked: a reset by email or by phone (forgot),
 * or an email-verification link (resend). Who, if anyone, gets it is decided later, off the
 * request's path (contract §4: the answer takes as long whether or not the account exists).
 */
export type MessageRequest =
  | { purpose: typeof CredentialPurpose.password_reset; by: 'email'; email: string }
  | { purpose: typeof CredentialPurpose.password_reset; by: 'phone'; phone: string }
  | { purpose: typeof CredentialPurpose.email_verification; by: 'email'; email: string };
