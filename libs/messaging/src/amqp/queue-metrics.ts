import type { ChannelWrapper } from 'amqp-connection-manager';
import { registerScrapedGauges, type Registry } from '@school/metrics';
import type { ConsumerTopology } from '../topology.js';
import type { AmqpConnection } from './amqp-connection.js';

/**
 * A consumer's work queue and dead-letter queue depths as gauges, asked of the broker
 * (`checkQueue`, messages ready for delivery) when Prometheus scrapes. Returns the closer of the
 * channel it opens on the first scrape.
 */
export function registerQueueMetrics(registry: Registry, connection: AmqpConnection, topology: ConsumerTopology): { close(): Promise<void> } {
  let channel: ChannelWrapper | undefined;
  registerScrapedGauges({
    registry,
    source: `queues of ${topology.consumer}`,
    gauges: {
      amqp_queue_messages: { help: "Messages ready in the consumer's work queue, not yet delivered.", labelNames: ['queue'] },
      amqp_dead_letter_messages: { help: "Messages in the consumer's dead-letter queue (poison or out of retries), waiting for an operator.", labelNames: ['queue'] },
    },
    read: async () => {
      if (!connection.isConnected()) throw new Error('broker not connected');
      if (!channel) {
        channel = connection.createChannel({ name: `${topology.consumer}-queue-metrics` });
        // A failed check (the queue deleted behind our back) closes the channel; the manager reopens it.
        channel.on('error', () => undefined);
      }
      await channel.waitForConnect();
      const [work, deadLetter] = await Promise.all([channel.checkQueue(topology.queue), channel.checkQueue(topology.deadLetterQueue)]);
      return {
        amqp_queue_messages: [{ labels: { queue: topology.queue }, value: work.messageCount }],
        amqp_dead_letter_messages: [{ labels: { queue: topology.deadLetterQueue }, value: deadLetter.messageCount }],
      };
    },
  });
  return { close: async () => void (await channel?.close().catch(() => undefined)) };
}
