import { PERMISSIONS } from '@school/auth';
import type { RouteDoc } from '@school/openapi';

/** Contract §7. */
export const LIVE_NOTIFICATION_ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/notifications/stream',
    tag: 'notifications',
    summary: 'Live admin notifications (Server-Sent Events)',
    description: 'Emits `event: feedback.submitted` with data `{ id, category, subject, createdAt }` for each accepted feedback.',
    response: { status: 200, description: 'An event stream that stays open', raw: { contentTypes: ['text/event-stream'], schema: { type: 'string' } } },
    permissions: [PERMISSIONS.Feedback_READ],
  },
];
