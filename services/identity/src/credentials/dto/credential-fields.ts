import { singleLineRaw } from '@school/http';
import { z } from 'zod';

/** Spec §2.2 / §8: an OTP is exactly six digits. */
export const sixDigitOtp = z.string().regex(/^\d{6}$/, 'must be exactly six digits');

/**
 * A link token as presented. Its format is not checked beyond a sane length: any other string is
 * simply unknown (AUTH_VERIFICATION_CODE_INVALID, spec §4.2 rule 4).
 */
export const LINK_TOKEN_MAX_LENGTH = 256;
export const presentedLinkToken = singleLineRaw.min(1, 'must not be empty').max(LINK_TOKEN_MAX_LENGTH, `must be at most ${LINK_TOKEN_MAX_LENGTH} characters`);
