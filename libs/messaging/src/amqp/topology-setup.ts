import type { Channel } from 'amqp-connection-manager';
import { DELIVERY_LIMIT, type BrokerNames, type ConsumerTopology } from '../topology.js';

/** The topic exchange producers publish to: all a producer declares. */
export async function declareEventsExchange(channel: Channel, names: Pick<BrokerNames, 'exchange'>): Promise<void> {
  await channel.assertExchange(names.exchange, 'topic', { durable: true });
}

export interface ConsumerQueueOptions {
  /** Quorum when the broker supports it (RabbitMQ >= 3.8), classic durable otherwise. */
  quorum: boolean;
  /** Quorum retry queues need message TTL and at-least-once dead-lettering (RabbitMQ >= 3.10). */
  quorumRetry: boolean;
}

/**
 * A consumer's topology (lessons 2 and 4), run from the setup callback of its channel so a broker
 * that lost its state gets it back on every reconnect:
 * - the events exchange and the shared dead-letter exchange (direct, keyed by source queue name);
 * - the dead-letter queue, bound to the dead-letter exchange with the work queue's name;
 * - the work queue, bound to the consumer's event types, rejecting into the dead-letter queue and
 *   dead-lettering a message redelivered more than DELIVERY_LIMIT times (its arguments are those of
 *   queues already deployed: a durable queue's arguments cannot change);
 * - one retry queue per retry delay: nobody consumes it; a message waits its TTL there and is then
 *   dead-lettered through the default exchange back into the work queue.
 */
export async function declareConsumerTopology(channel: Channel, topology: ConsumerTopology, options: ConsumerQueueOptions): Promise<void> {
  const queueType = options.quorum ? { 'x-queue-type': 'quorum' } : {};
  await declareEventsExchange(channel, topology);
  await channel.assertExchange(topology.deadLetterExchange, 'direct', { durable: true });
  await channel.assertQueue(topology.deadLetterQueue, { durable: true, arguments: { ...queueType } });
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, topology.queue);
  await channel.assertQueue(topology.queue, {
    durable: true,
    arguments: {
      ...queueType,
      'x-dead-letter-exchange': topology.deadLetterExchange,
      'x-dead-letter-routing-key': topology.queue,
      ...(options.quorum && { 'x-delivery-limit': DELIVERY_LIMIT }),
    },
  });
  const retryQueueType = options.quorumRetry ? { 'x-queue-type': 'quorum' } : {};
  for (const { name, delayMs } of topology.retryQueues) {
    await channel.assertQueue(name, {
      durable: true,
      arguments: {
        ...retryQueueType,
        'x-message-ttl': delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': topology.queue,
        // Quorum queues dead-letter at most once unless told otherwise; a retry must not be lost.
        ...(options.quorumRetry && { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' }),
      },
    });
  }
  for (const key of topology.bindings) await channel.bindQueue(topology.queue, topology.exchange, key);
}
