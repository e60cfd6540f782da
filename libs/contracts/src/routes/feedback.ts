import { z } from 'zod';
import { emailAddress } from '../http/contact-fields.js';
import { successEnvelope } from '../http/envelopes.js';
import { multiLineText, singleLine } from '../http/text-fields.js';
import { routeManifest } from './route-spec.js';

/** Spec §2.5. */
export const FEEDBACK_CATEGORIES = ['bug_report', 'feature_request', 'general_feedback'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

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
export type CustomerFeedbackBody = z.output<typeof customerFeedbackBody>;

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
export type GuestFeedbackBody = z.output<typeof guestFeedbackBody>;

/** Rule 3: the same answer whether stored or discarded; no id, no echo. */
const received = successEnvelope(z.object({ status: z.literal('received') }));

/** Spec §4.3: two separate routes, so a signed-in caller cannot post the guest body (rule 1). */
export const FEEDBACK_ROUTES = routeManifest({
  /**
   * Any valid access token (contract §4: routes outside the surface-bound ones decide by
   * permission, and posting feedback needs none, so customers, who hold none, may). 422 for every
   * body failure (contract §3).
   */
  submit: {
    method: 'POST',
    path: '/api/mobile/feedback',
    auth: 'jwt',
    throttles: ['feedback'],
    tag: 'feedback',
    summary: 'Send feedback as the signed-in account',
    description: 'Every body failure, an undeclared field included, is 422 VALIDATION_FAILED on this route.',
    body: { json: customerFeedbackBody, example: { category: 'feature_request', subject: 'Dark mode', message: 'Please add a dark theme.' } },
    response: { status: 201, description: 'Received', schema: received },
    validationStatus: 422,
  },
  submitAsGuest: {
    method: 'POST',
    path: '/api/mobile/feedback/public',
    auth: 'public',
    throttles: ['guestFeedback', 'guestFeedbackPerIp'],
    tag: 'feedback',
    summary: 'Send feedback as a guest (5 per hour per ip and device)',
    description: 'Always the same acknowledgement, whether stored or not. companyWebsite is a honeypot: leave it empty.',
    body: {
      json: guestFeedbackBody,
      example: { name: 'A Guest', email: 'guest@example.com', category: 'general_feedback', subject: 'Hello', message: 'Nice shop.' },
    },
    response: { status: 200, description: 'Received', schema: received },
  },
});
