import { ALL_EVENT_TYPES } from './events/event-types.js';

/** Broker and job-queue names, spelled only here. */
export const EXCHANGES = {
  /** Topic exchange every producer's relay publishes to; routing key = event type. */
  events: 'events',
  /** Direct exchange receiving what a consumer rejects; routes by the source queue's name. */
  deadLetter: 'events.dead-letter',
} as const;

export const QUEUES = {
  notifierEvents: 'notifier.events',
  notifierDeadLetter: 'notifier.events.dlq',
} as const;

/** BullMQ queues of the notifier. */
export const JOB_QUEUES = {
  sendEmail: 'notification.send_email',
  sendSms: 'notification.send_sms',
} as const;

/** Redis pub/sub channel carrying live admin notifications to every notifier replica. */
export const LIVE_NOTIFICATION_CHANNEL = 'notifier:live';

/**
 * A redelivered message is dead-lettered after this many deliveries (quorum queues count them),
 * so a message that keeps failing for a reason nobody foresaw cannot circulate for ever.
 */
export const DELIVERY_LIMIT = 20;

export interface BrokerNames {
  exchange: string;
  deadLetterExchange: string;
  notifierQueue: string;
  notifierDeadLetterQueue: string;
}

/**
 * The broker names, with an optional prefix: production uses none; tests (the broker has one
 * vhost) use a random one so parallel runs never share an exchange or a queue.
 */
export function brokerNames(prefix = ''): BrokerNames {
  return {
    exchange: `${prefix}${EXCHANGES.events}`,
    deadLetterExchange: `${prefix}${EXCHANGES.deadLetter}`,
    notifierQueue: `${prefix}${QUEUES.notifierEvents}`,
    notifierDeadLetterQueue: `${prefix}${QUEUES.notifierDeadLetter}`,
  };
}

/** The routing keys bound to the notifier's queue: every event of the catalogue. */
export const NOTIFIER_BINDINGS: readonly string[] = ALL_EVENT_TYPES;
