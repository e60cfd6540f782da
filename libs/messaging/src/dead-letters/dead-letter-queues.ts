import amqplib, { type ConfirmChannel, type GetMessage } from 'amqplib';
import { brokerNames, consumerTopology } from '../topology.js';
import { describeDeadLetter, originalRoutingKey, replayProperties, type DeadLetter } from './dead-letter.js';

export interface DeadLetterQueuesOptions {
  url: string;
  /** AMQP_NAME_PREFIX. */
  prefix: string;
  /** Consumers whose dead-letter queues may exist (each declares `<consumer>.events.dlq`). */
  consumers: readonly string[];
}

export interface ReplayResult {
  replayed: DeadLetter[];
}

/** A message held (fetched, not yet settled) while browsing: it goes back when the channel closes. */
interface Held {
  raw: GetMessage;
  letter: DeadLetter;
}

/**
 * Reads and empties the consumers' dead-letter queues over a plain AMQP connection (a short-lived
 * operator tool: no reconnects). Browsing fetches every message without acknowledging it and then
 * closes the channel, so the broker puts them all back: nothing is lost and a second look shows the
 * same messages.
 */
export class DeadLetterQueues {
  private constructor(
    private readonly connection: amqplib.ChannelModel,
    private readonly options: DeadLetterQueuesOptions,
  ) {}

  static async connect(options: DeadLetterQueuesOptions): Promise<DeadLetterQueues> {
    const connection = await amqplib.connect(options.url, { clientProperties: { connection_name: 'dlq-cli' } });
    connection.on('error', () => undefined);
    return new DeadLetterQueues(connection, options);
  }

  /** The dead-letter queue of every consumer that has declared one, in the order of `consumers`. */
  async existing(): Promise<string[]> {
    const found: string[] = [];
    for (const consumer of this.options.consumers) {
      const queue = consumerTopology(consumer, [], { prefix: this.options.prefix }).deadLetterQueue;
      if ((await this.count(queue)) !== null) found.push(queue);
    }
    return found;
  }

  /** The parked messages of `queue`, oldest first, left in place. */
  async list(queue: string): Promise<DeadLetter[]> {
    return this.holding(queue, async (held) => held.map((message) => message.letter));
  }

  /**
   * Republishes parked messages (all, or those with message id `id`) to the events exchange with
   * their original routing key, and removes each from the queue only once the broker has confirmed
   * and routed its copy. A copy that fails leaves its original parked and stops the replay.
   */
  async replay(queue: string, id?: string): Promise<ReplayResult> {
    return this.holding(queue, async (held, channel) => {
      const replayed: DeadLetter[] = [];
      const { exchange } = brokerNames(this.options.prefix);
      // One copy in flight at a time, and the broker returns an unroutable copy before confirming it.
      let returned: boolean;
      channel.on('return', () => {
        returned = true;
      });
      for (const { raw, letter } of held) {
        if (id !== undefined && letter.messageId !== id) continue;
        returned = false;
        await publishConfirmed(channel, exchange, originalRoutingKey(raw), raw.content, replayProperties(raw));
        if (returned) {
          throw new ReplayError(`no queue is bound for routing key "${letter.routingKey}"; ${replayed.length} replayed before it, the rest left in ${queue}`);
        }
        channel.ack(raw);
        replayed.push(letter);
      }
      return { replayed };
    });
  }

  /** Deletes every message parked in `queue`; the number deleted. */
  async purge(queue: string): Promise<number> {
    const channel = await this.connection.createChannel();
    try {
      return (await channel.purgeQueue(queue)).messageCount;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  /** Messages ready in `queue`, or null when it does not exist. */
  async count(queue: string): Promise<number | null> {
    // A check of a missing queue closes its channel (404): a channel of its own.
    const channel = await this.connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } catch (error) {
      if ((error as { code?: number }).code === 404) return null;
      throw error;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }

  /**
   * Fetches every message of `queue` unacknowledged on a confirm channel of its own, runs `work`,
   * then closes the channel: whatever `work` did not ack goes back to the queue, in its order.
   * Messages dead-lettered meanwhile (a replayed one refused again) are not fetched twice.
   */
  private async holding<T>(queue: string, work: (held: Held[], channel: ConfirmChannel) => Promise<T>): Promise<T> {
    const channel = await this.connection.createConfirmChannel();
    channel.on('error', () => undefined);
    try {
      const held: Held[] = [];
      for (;;) {
        const raw = await channel.get(queue, { noAck: false });
        if (raw === false) break;
        held.push({ raw, letter: describeDeadLetter(queue, raw) });
      }
      return await work(held, channel);
    } finally {
      await channel.close().catch(() => undefined);
    }
  }
}

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

function publishConfirmed(channel: ConfirmChannel, exchange: string, routingKey: string, content: Buffer, options: amqplib.Options.Publish): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.publish(exchange, routingKey, content, options, (error) =>
      error ? reject(new ReplayError(`the broker refused the copy of ${String(options.messageId)}`)) : resolve(),
    );
  });
}
