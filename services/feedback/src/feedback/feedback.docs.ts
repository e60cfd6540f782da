import { type RouteDoc, successEnvelope } from '@school/openapi';
import { z } from 'zod';
import { customerFeedbackBody, guestFeedbackBody } from './dto/feedback-body.dto.js';

const received = successEnvelope(z.object({ status: z.literal('received') }));
const TAG = 'feedback';

/** Spec §4.3 and contract §3: the authenticated and the guest route. */
export const FEEDBACK_ROUTES: RouteDoc[] = [
  {
    method: 'POST',
    path: '/api/mobile/feedback',
    tag: TAG,
    summary: 'Send feedback as the signed-in account',
    description: 'Every body failure, an undeclared field included, is 422 VALIDATION_FAILED on this route.',
    body: { json: customerFeedbackBody, example: { category: 'feature_request', subject: 'Dark mode', message: 'Please add a dark theme.' } },
    response: { status: 201, description: 'Received', schema: received },
    validationStatus: 422,
  },
  {
    method: 'POST',
    path: '/api/mobile/feedback/public',
    tag: TAG,
    summary: 'Send feedback as a guest (5 per hour per ip and device)',
    description: 'Always the same acknowledgement, whether stored or not. companyWebsite is a honeypot: leave it empty.',
    body: {
      json: guestFeedbackBody,
      example: { name: 'A Guest', email: 'guest@example.com', category: 'general_feedback', subject: 'Hello', message: 'Nice shop.' },
    },
    response: { status: 200, description: 'Received', schema: received },
  },
];
