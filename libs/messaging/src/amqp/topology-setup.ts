import type { Channel } from 'amqp-connection-manager';
import { DELIVERY_LIMIT, type BrokerNames } from '../topology.js';

/** The topic exchange producers publish to. */
export async function declareEventsExchange(channel: Channel, names: Pick<BrokerNames, 'exchange'>): Promise<void> {
  await channel.assertExchange(names.exchange, 'topic', { durable: true });
}

export interface ConsumerQueueOptions {
  /** Routing keys (event types) bound to the queue. */
  bindings: readonly string[];
  /** Quorum when the broker supports it (RabbitMQ >= 3.8), classic durable otherwise. */
  quorum: boolean;
}

/**
 * The whole topology (lessons 2 and 4): the events exchange, a dead-letter exchange and queue, and
 * the notifier's durable queue bound to its event types, rejecting into the dead-letter queue and
 * dead-lettering a message redelivered more than DELIVERY_LIMIT times. Run from the setup callback
 * of every publisher and consumer channel, so a broker that lost its state gets it back on
 * reconnect, and no event is published before the queue that keeps it exists.
 */
export async function declareConsumerTopology(channel: Channel, names: BrokerNames, options: ConsumerQueueOptions): Promise<void> {
  const queueType = options.quorum ? { 'x-queue-type': 'quorum' } : {};
  await declareEventsExchange(channel, names);
  await channel.assertExchange(names.deadLetterExchange, 'direct', { durable: true });
  await channel.assertQueue(names.notifierDeadLetterQueue, { durable: true, arguments: { ...queueType } });
  await channel.bindQueue(names.notifierDeadLetterQueue, names.deadLetterExchange, names.notifierQueue);
  await channel.assertQueue(names.notifierQueue, {
    durable: true,
    arguments: {
      ...queueType,
      'x-dead-letter-exchange': names.deadLetterExchange,
      'x-dead-letter-routing-key': names.notifierQueue,
      ...(options.quorum && { 'x-delivery-limit': DELIVERY_LIMIT }),
    },
  });
  for (const key of options.bindings) await channel.bindQueue(names.notifierQueue, names.exchange, key);
}
