import { routeManifest } from './route-spec.js';

/** Contract §7: Server-Sent Events for holders of Feedback_READ. */
export const NOTIFICATION_ROUTES = routeManifest({
  stream: {
    method: 'GET',
    path: '/api/notifications/stream',
    auth: 'jwt',
    permissions: ['Feedback_READ'],
    stream: true,
    tag: 'notifications',
    summary: 'Live admin notifications (Server-Sent Events)',
    description: 'Emits `event: feedback.submitted` with data `{ id, category, subject, createdAt }` for each accepted feedback.',
    response: { status: 200, description: 'An event stream that stays open', raw: { contentTypes: ['text/event-stream'], schema: { type: 'string' } } },
  },
});
