import type { ServiceName } from '@school/config';
import { ALL_EVENT_TYPES, EVENT_TYPES, type EventType } from '@school/contracts';

/**
 * What the notifier consumes, from which its queues are declared (`notifier.events`, its retry
 * queues and `notifier.events.dlq`): every event of the catalogue that becomes an email, an SMS or
 * a live notification, each with a handler in InboundEventsController, and an erasure (contract
 * §11: the mails still queued for the account's address are dropped). A user's committed address
 * is reference-data's to consume, not a notification, and an audit entry the audit store's.
 */
const NOT_NOTIFICATIONS: readonly EventType[] = [EVENT_TYPES.userAddressChanged, EVENT_TYPES.auditEntryRecorded];

export const INBOUND_EVENTS: { consumer: ServiceName; bindings: readonly EventType[] } = {
  consumer: 'notifier',
  bindings: Object.freeze(ALL_EVENT_TYPES.filter((type) => !NOT_NOTIFICATIONS.includes(type))),
};
