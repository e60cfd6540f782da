import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES } from '@school/config';
import amqplib from 'amqplib';
import { RPC_CONTRACTS, type RpcContract } from '@school/contracts';
import { rpcQueueName } from '../rpc/rpc-wire.js';
import { brokerNames, consumerTopology, type BrokerNames, type ConsumerTopology, type RetryPolicy } from '../topology.js';

export const TEST_AMQP_URL = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';

/** A random name prefix, so a test run's exchanges and queues never meet another run's. */
export function uniqueBrokerPrefix(label = 'test'): string {
  return `${label}-${randomBytes(4).toString('hex')}.`;
}

/** Direct broker access for assertions and clean-up (plain amqplib, no reconnects). */
export class TestBroker {
  private readonly consumers = new Map<string, ConsumerTopology>();
  private readonly rpcQueues = new Set<string>(RPC_CONTRACTS.map((contract) => rpcQueueName(contract, '')));

  private constructor(
    private readonly connection: amqplib.ChannelModel,
    private readonly channel: amqplib.ConfirmChannel,
    readonly prefix: string,
    readonly names: BrokerNames,
  ) {}

  static async connect(prefix: string, url = TEST_AMQP_URL): Promise<TestBroker> {
    const connection = await amqplib.connect(url);
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined);
    connection.on('error', () => undefined);
    return new TestBroker(connection, channel, prefix, brokerNames(prefix));
  }

  /**
   * The topology of consumer `name` under this prefix (what its EventTransportModule or
   * EventConsumer declares with the same arguments); its queues are deleted by destroy().
   */
  consumer(name: string, bindings: readonly string[] = [], retry?: RetryPolicy): ConsumerTopology {
    const topology = consumerTopology(name, bindings, { prefix: this.prefix, ...(retry && { retry }) });
    this.consumers.set(name, topology);
    return topology;
  }

  /** The serving queue of `contract` under this prefix (what its RpcServer declares); deleted by destroy(). */
  rpcQueue(contract: Pick<RpcContract, 'name'>): string {
    this.rpcQueues.add(contract.name);
    return rpcQueueName(contract, this.prefix);
  }

  /** Publishes straight to the events exchange (bypassing the outbox), waiting for the confirm. */
  async publish(routingKey: string, body: Buffer | string, options: amqplib.Options.Publish = {}): Promise<void> {
    this.channel.publish(this.names.exchange, routingKey, Buffer.from(body), { persistent: true, contentType: 'application/json', ...options });
    await this.channel.waitForConfirms();
  }

  /** Puts a message straight into a queue (default exchange). */
  async sendToQueue(queue: string, body: Buffer | string, options: amqplib.Options.Publish = {}): Promise<void> {
    this.channel.sendToQueue(queue, Buffer.from(body), { persistent: true, ...options });
    await this.channel.waitForConfirms();
  }

  /** Messages ready in `queue`; null when the queue does not exist. */
  async messageCount(queue: string): Promise<number | null> {
    // A check of a missing queue closes the channel (404), so it gets a channel of its own.
    const channel = await this.connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } catch {
      return null;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  /** True when `queue` is a quorum queue (re-declaring it as classic is refused with 406). */
  async isQuorumQueue(queue: string): Promise<boolean> {
    const channel = await this.connection.createChannel();
    channel.on('error', () => undefined);
    try {
      await channel.checkQueue(queue);
      await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'classic' } });
      return false;
    } catch (error) {
      if ((error as { code?: number }).code === 406) return true;
      throw error;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  /** Takes up to `max` messages off a queue (acking them). */
  async drain(queue: string, max = 100): Promise<amqplib.GetMessage[]> {
    const messages: amqplib.GetMessage[] = [];
    while (messages.length < max) {
      const message = await this.channel.get(queue, { noAck: true });
      if (!message) break;
      messages.push(message);
    }
    return messages;
  }

  /** A throw-away queue bound to the events exchange, to observe what gets published. */
  async tap(routingKey = '#'): Promise<string> {
    await this.channel.assertExchange(this.names.exchange, 'topic', { durable: true });
    const { queue } = await this.channel.assertQueue('', { exclusive: true, autoDelete: true });
    await this.channel.bindQueue(queue, this.names.exchange, routingKey);
    return queue;
  }

  async deleteQueue(queue: string): Promise<void> {
    await this.channel.deleteQueue(queue);
  }

  /**
   * Deletes the queues of the prefix, then its exchanges, and disconnects: the queues of every
   * consumer named through consumer(), those any service of the topology declares as a consumer
   * with the default retry policy, and the serving queues of every RPC contract of the product and
   * of those named through rpcQueue() (deleting a queue that does not exist is a no-op).
   */
  async destroy(): Promise<void> {
    const { names } = this;
    for (const service of SERVICE_NAMES) if (!this.consumers.has(service)) this.consumer(service);
    for (const topology of this.consumers.values()) {
      for (const queue of [topology.queue, topology.deadLetterQueue, ...topology.retryQueues.map((retry) => retry.name)]) {
        await this.channel.deleteQueue(queue).catch(() => undefined);
      }
    }
    for (const name of this.rpcQueues) await this.channel.deleteQueue(rpcQueueName({ name }, this.prefix)).catch(() => undefined);
    for (const exchange of [names.exchange, names.deadLetterExchange]) await this.channel.deleteExchange(exchange).catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }

  /** Closes the connection and deletes nothing (another party of the test owns the names). */
  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }
}
