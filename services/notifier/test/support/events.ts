import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@school/contracts';

/** A guest feedback whose message carries `marker`, to find its email in the sink. */
export function guestFeedback(marker: string, overrides: Partial<EventPayload<'feedback.submitted'>> = {}): EventPayload<'feedback.submitted'> {
  return {
    id: randomUUID(),
    category: 'bug_report',
    subject: `Checkout fails ${marker}`,
    message: `The pay button does nothing. <script>alert(1)</script> ${marker}`,
    createdAt: new Date().toISOString(),
    from: { type: 'guest', name: 'Guest Person', email: 'guest@example.org', phone: null },
    ...overrides,
  };
}
