import type { ServiceName } from '@school/config';
import type { EventType } from '@school/contracts';
import { NOTIFIED_EVENT_TYPES } from './notification-effects.js';

/**
 * What the notifier consumes, from which its queues are declared (`notifier.events`, its retry
 * queues and `notifier.events.dlq`) and InboundEventsController's handler bound: every event that
 * NOTIFICATION_EFFECTS turns into an email, an SMS, a live notification or an erasure.
 */
export const INBOUND_EVENTS: { consumer: ServiceName; bindings: readonly EventType[] } = {
  consumer: 'notifier',
  bindings: NOTIFIED_EVENT_TYPES,
};
