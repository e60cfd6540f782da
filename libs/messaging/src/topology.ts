/** The exchanges every service shares, spelled only here. */
export const EXCHANGES = {
  /** Topic exchange every producer's relay publishes to; routing key = event type. */
  events: 'events',
  /** Direct exchange receiving what a consumer rejects; routes by the source queue's name. */
  deadLetter: 'events.dead-letter',
} as const;

/**
 * A message redelivered this many times without being settled (its consumer kept dying on it) is
 * dead-lettered by the broker (quorum queues count deliveries). Handler failures do not count here:
 * they go through the retry queues (RetryPolicy).
 */
export const DELIVERY_LIMIT = 20;

/** The names every service shares, with an optional prefix. */
export interface BrokerNames {
  /** Prepended to every exchange and queue name: none in production, a random one in tests (one vhost). */
  prefix: string;
  exchange: string;
  deadLetterExchange: string;
}

export function brokerNames(prefix = ''): BrokerNames {
  return { prefix, exchange: `${prefix}${EXCHANGES.events}`, deadLetterExchange: `${prefix}${EXCHANGES.deadLetter}` };
}

/** How a consumer retries a message whose handler failed for a transient reason. */
export interface RetryPolicy {
  /**
   * Wait before each retry, in order; the last one repeats. Each distinct delay is one retry queue
   * (a queue-wide TTL, so a long wait never holds a short one back).
   */
  delaysMs: readonly number[];
  /** Retries after the first delivery; the failure after the last one dead-letters the message. */
  maxRetries: number;
}

/**
 * 1 s, 10 s, 1 min, then every 5 min: 12 retries span about 46 minutes, so a database or Redis
 * outage shorter than that dead-letters nothing, while a failing message never holds a prefetch slot.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { delaysMs: [1_000, 10_000, 60_000, 300_000], maxRetries: 12 };

/** Everything one consumer declares and consumes, derived from its name (see consumerTopology). */
export interface ConsumerTopology extends BrokerNames {
  consumer: string;
  /** The work queue, bound to `exchange` with `bindings`: `<consumer>.events`. */
  queue: string;
  /** Where rejected and exhausted messages end: `<consumer>.events.dlq`. */
  deadLetterQueue: string;
  /** Routing keys (event types) bound to the work queue. */
  bindings: readonly string[];
  retry: RetryPolicy;
  /** One per distinct delay, `<consumer>.events.retry.<ms>ms`: TTL, then back to the work queue. */
  retryQueues: ReadonlyArray<{ name: string; delayMs: number }>;
}

export interface ConsumerTopologyOptions {
  prefix?: string;
  retry?: RetryPolicy;
}

const CONSUMER_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/**
 * The topology a consuming service owns, from one parameter: its name and the event types it
 * binds. Producers declare only the events exchange; each consumer declares its queue, bindings,
 * retry queues and dead-letter queue (declareConsumerTopology).
 */
export function consumerTopology(consumer: string, bindings: readonly string[], options: ConsumerTopologyOptions = {}): ConsumerTopology {
  if (!CONSUMER_NAME.test(consumer)) throw new Error(`consumer name "${consumer}" must match ${CONSUMER_NAME}`);
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  if (retry.delaysMs.length === 0 || retry.delaysMs.some((ms) => !Number.isInteger(ms) || ms < 1)) {
    throw new Error('retry.delaysMs must be one or more positive integers');
  }
  if (!Number.isInteger(retry.maxRetries) || retry.maxRetries < 0) throw new Error('retry.maxRetries must be an integer >= 0');
  const names = brokerNames(options.prefix);
  const queue = `${names.prefix}${consumer}.events`;
  return {
    ...names,
    consumer,
    queue,
    deadLetterQueue: `${queue}.dlq`,
    bindings: Object.freeze([...bindings]),
    retry,
    retryQueues: [...new Set(retry.delaysMs)].map((delayMs) => ({ name: retryQueueName(queue, delayMs), delayMs })),
  };
}

/** The retry queue a message goes to after its `retriesSoFar`-th failure (0 for the first). */
export function retryQueueFor(topology: ConsumerTopology, retriesSoFar: number): string {
  const { delaysMs } = topology.retry;
  const delayMs = delaysMs[Math.min(retriesSoFar, delaysMs.length - 1)] as number;
  return retryQueueName(topology.queue, delayMs);
}

function retryQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}ms`;
}
