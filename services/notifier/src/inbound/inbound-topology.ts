import type { ServiceName } from '@school/config';
import { type EventType, NOTIFICATION_EVENT_TYPES } from '@school/messaging';

/**
 * What the notifier consumes, from which its queues are declared (`notifier.events`, its retry
 * queues and `notifier.events.dlq`): every notification event of the catalogue, each with a handler in
 * InboundEventsController.
 */
export const INBOUND_EVENTS: { consumer: ServiceName; bindings: readonly EventType[] } = {
  consumer: 'notifier',
  bindings: NOTIFICATION_EVENT_TYPES,
};
