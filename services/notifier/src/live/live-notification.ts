import { EVENT_TYPES, type EventPayload } from '@school/contracts';

/** What admins' live streams receive (contract §7): `event: feedback.submitted`. */
export interface LiveNotification {
  event: typeof EVENT_TYPES.feedbackSubmitted;
  /** The event's message id: the SSE `id:`, so a client can drop a repeat. */
  id: string;
  data: { id: string; category: string; subject: string | null; createdAt: string };
}

export function feedbackNotification(messageId: string, feedback: EventPayload<'feedback.submitted'>): LiveNotification {
  return {
    event: EVENT_TYPES.feedbackSubmitted,
    id: messageId,
    data: { id: feedback.id, category: feedback.category, subject: feedback.subject, createdAt: feedback.createdAt },
  };
}

/** One Server-Sent Events frame; `data` is single-line JSON. */
export function sseFrame(notification: LiveNotification): string {
  return `id: ${notification.id}\nevent: ${notification.event}\ndata: ${JSON.stringify(notification.data)}\n\n`;
}
