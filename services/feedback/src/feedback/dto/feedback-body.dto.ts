import { emailAddress, multiLineText, singleLine } from '@school/http';
import { z } from 'zod';

/** Spec §2.5. */
export const FEEDBACK_CATEGORIES = ['bug_report', 'feature_request', 'general_feedback'] as const;

const category = z.enum(FEEDBACK_CATEGORIES, { message: `must be one of ${FEEDBACK_CATEGORIES.join(', ')}` });

/** Spec §8, the guest form's bounds; the authenticated route uses the same ones. */
export const FEEDBACK_BOUNDS = { name: 120, phone: 40, subject: 255, message: 5000, companyWebsite: 2048 } as const;

const message = multiLineText(1, FEEDBACK_BOUNDS.message);

/** Optional single-line text whose blank (after trimming) means absent: stored as null. */
function optionalLine(max: number) {
  return singleLine(0, max)
    .nullish()
    .transform((value) => (value ? value : null));
}

/**
 * The authenticated body (spec §2.5): the account is the sender, so no name, email or phone; an
 * undeclared field is refused (422 on this route, contract §3). `subject` is optional here: absent,
 * null and blank all mean none.
 */
export const customerFeedbackBody = z.strictObject({
  category,
  subject: optionalLine(FEEDBACK_BOUNDS.subject),
  message,
});

/**
 * The guest body, exactly spec §2.5: every string trimmed first, bounds of spec §8, any other field
 * refused (400). `companyWebsite` is the honeypot, bounded only so it cannot carry a huge string.
 */
export const guestFeedbackBody = z.strictObject({
  name: singleLine(1, FEEDBACK_BOUNDS.name),
  email: emailAddress,
  phone: optionalLine(FEEDBACK_BOUNDS.phone),
  category,
  subject: singleLine(1, FEEDBACK_BOUNDS.subject),
  message,
  companyWebsite: z.string().trim().max(FEEDBACK_BOUNDS.companyWebsite, `must be at most ${FEEDBACK_BOUNDS.companyWebsite} characters`).optional(),
});

export type CustomerFeedbackBody = z.output<typeof customerFeedbackBody>;
export type GuestFeedbackBody = z.output<typeof guestFeedbackBody>;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
