import {
  AmqpConnection,
  DeadLetterError,
  EventConsumer,
  RETRY_HEADERS,
  silentLogger,
  type ConsumerTopology,
  type IncomingMessage,
  type MessageHandler,
  type RetryPolicy,
} from '@school/messaging';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { delay, waitFor } from './support/wait.js';

const KEY = 'identity.password_changed';
const OTHER_KEY = 'feedback.submitted';
/** Any consumer, not only the notifier: the library names none. */
const CONSUMER = 'orders';
const FAST_RETRY: RetryPolicy = { delaysMs: [50, 100], maxRetries: 3 };

describe('event consumer (real RabbitMQ)', () => {
  let broker: TestBroker;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('consumer'));
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
  });

  async function startConsumer(handler: MessageHandler, { url = TEST_AMQP_URL, prefetch = 5, retry = FAST_RETRY, bindings = [KEY] } = {}) {
    const connection = new AmqpConnection({ url, name: 'consumer-test', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
    const topology = broker.consumer(CONSUMER, bindings, retry);
    const consumer = new EventConsumer(connection, { topology, prefetch, handler, logger: silentLogger });
    consumer.start();
    cleanups.push(async () => {
      await consumer.stop();
      await connection.close();
    });
    await waitFor(() => consumer.isConsuming(), { what: 'the subscription' });
    return { connection, consumer, topology };
  }

  async function deadLettered(topology: ConsumerTopology, count: number) {
    const dead: Awaited<ReturnType<TestBroker['drain']>> = [];
    await waitFor(
      async () => {
        dead.push(...(await broker.drain(topology.deadLetterQueue)));
        return dead.length >= count;
      },
      { what: `${count} dead-lettered message(s)` },
    );
    return dead;
  }

  function recorder() {
    const handled: IncomingMessage[] = [];
    const handler: MessageHandler = async (message) => {
      handled.push(message);
    };
    return { handled, handler };
  }

  it('declares its own durable quorum queues from its name (work, retry per delay, dead-letter), and acks what the handler accepted', async () => {
    const { handled, handler } = recorder();
    const { topology } = await startConsumer(handler);
    expect(topology.queue).toBe(`${broker.prefix}orders.events`);
    expect(topology.deadLetterQueue).toBe(`${broker.prefix}orders.events.dlq`);
    expect(topology.retryQueues.map((queue) => queue.name)).toEqual([`${broker.prefix}orders.events.retry.50ms`, `${broker.prefix}orders.events.retry.100ms`]);
    await broker.publish(KEY, '{"n":1}', { messageId: 'm-1' });
    await waitFor(() => handled.length === 1, { what: 'the message' });
    expect(handled[0]).toMatchObject({ messageId: 'm-1', routingKey: KEY, deliveryCount: 1 });
    await waitFor(async () => (await broker.messageCount(topology.queue)) === 0, { what: 'the ack' });
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
    for (const queue of [topology.queue, topology.deadLetterQueue, ...topology.retryQueues.map((retry) => retry.name)]) {
      expect(await broker.isQuorumQueue(queue)).toBe(true);
    }
  });

  it('dead-letters what the handler refuses and goes on with the next message', async () => {
    const { handled, handler } = recorder();
    const { topology } = await startConsumer(async (message) => {
      if (message.body.toString() === 'poison') throw new DeadLetterError('not JSON');
      await handler(message);
    });
    await broker.publish(KEY, 'poison', { messageId: 'bad' });
    await broker.publish(KEY, '{"ok":true}', { messageId: 'good' });

    await waitFor(() => handled.length === 1, { what: 'the good message' });
    expect(handled[0]?.messageId).toBe('good');
    const [dead] = await deadLettered(topology, 1);
    expect(dead?.properties.messageId).toBe('bad');
    expect(dead?.content.toString()).toBe('poison');
  });

  it('retries a message that failed for a transient reason through the retry queues, keeping its routing key, and handles it then', async () => {
    const { handled, handler } = recorder();
    const failures: IncomingMessage[] = [];
    const { topology } = await startConsumer(async (message) => {
      if (failures.length < 2) {
        failures.push(message);
        throw new Error('database unavailable');
      }
      await handler(message);
    });
    await broker.publish(KEY, '{"n":7}', { messageId: 'retry-me', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    await waitFor(() => handled.length === 1, { what: 'the retried message' });
    expect(failures.map((message) => message.deliveryCount)).toEqual([1, 2]);
    expect(handled[0]).toMatchObject({ messageId: 'retry-me', routingKey: KEY, deliveryCount: 3 });
    expect(handled[0]?.body.toString()).toBe('{"n":7}');
    expect(handled[0]?.headers).toMatchObject({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      [RETRY_HEADERS.count]: 2,
      [RETRY_HEADERS.lastError]: 'database unavailable',
    });
    await waitFor(async () => (await broker.messageCount(topology.queue)) === 0, { what: 'the ack' });
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
  });

  it('dead-letters a message that always fails after the bounded number of retries, with the reason', async () => {
    const attempts: IncomingMessage[] = [];
    const { topology } = await startConsumer(async (message) => {
      attempts.push(message);
      throw new Error(`still failing (${attempts.length})`);
    });
    await broker.publish(KEY, '{}', { messageId: 'hopeless' });
    const [dead] = await deadLettered(topology, 1);
    expect(attempts).toHaveLength(1 + FAST_RETRY.maxRetries);
    expect(attempts.every((message) => message.routingKey === KEY && message.messageId === 'hopeless')).toBe(true);
    expect(dead?.properties.messageId).toBe('hopeless');
    expect(dead?.properties.headers).toMatchObject({ [RETRY_HEADERS.count]: 3, [RETRY_HEADERS.routingKey]: KEY, [RETRY_HEADERS.lastError]: 'still failing (3)' });
    await delay(300);
    expect(attempts).toHaveLength(1 + FAST_RETRY.maxRetries);
    for (const queue of [topology.queue, ...topology.retryQueues.map((retry) => retry.name)]) expect(await broker.messageCount(queue)).toBe(0);
  });

  it('a poisoned event type does not delay the others: its failures wait in the retry queue, not in a prefetch slot', async () => {
    const { handled, handler } = recorder();
    const poisoned: IncomingMessage[] = [];
    // One message in flight at a time, and a retry delay far beyond the time the others may take.
    const { topology } = await startConsumer(
      async (message) => {
        if (message.routingKey === KEY) {
          poisoned.push(message);
          throw new Error('this type always fails');
        }
        await handler(message);
      },
      { prefetch: 1, retry: { delaysMs: [scaled(5_000)], maxRetries: 1 }, bindings: [KEY, OTHER_KEY] },
    );
    await broker.publish(KEY, '{}', { messageId: 'poison' });
    for (let i = 0; i < 20; i += 1) await broker.publish(OTHER_KEY, '{}', { messageId: `other-${i}` });
    await waitFor(() => handled.length === 20, { what: 'the 20 other events' });
    // All of them were handled while the poisoned one waited out its retry delay, not after it.
    expect(poisoned).toHaveLength(1);
    expect(handled.map((message) => message.messageId)).toEqual(Array.from({ length: 20 }, (_, i) => `other-${i}`));
    expect(await broker.messageCount(topology.retryQueues[0]?.name ?? '')).toBe(1);
    // After its delay it is tried once more (maxRetries 1) and then dead-lettered.
    const [dead] = await deadLettered(topology, 1);
    expect(dead?.properties.messageId).toBe('poison');
    expect(poisoned).toHaveLength(2);
  });

  it('re-subscribes after the connection drops, and re-declares a queue deleted behind its back', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    const { handled, handler } = recorder();
    const { consumer, topology } = await startConsumer(handler, { url: proxy.urlFor(TEST_AMQP_URL) });

    await proxy.cut();
    await waitFor(() => !consumer.isConsuming(), { what: 'the drop' });
    await delay(200);
    await proxy.resume();
    await waitFor(() => consumer.isConsuming(), { what: 're-subscription after reconnect' });
    await broker.publish(KEY, '{}', { messageId: 'after-reconnect' });
    await waitFor(() => handled.some((m) => m.messageId === 'after-reconnect'), { what: 'a message after the reconnect' });

    // The broker cancels consumers of a deleted queue; the consumer reconnects, which re-runs setup.
    await broker.deleteQueue(topology.queue);
    await waitFor(async () => consumer.isConsuming() && (await broker.messageCount(topology.queue)) === 0, {
      what: 'the queue to be declared again',
      timeoutMs: 15_000,
    });
    await broker.publish(KEY, '{}', { messageId: 'after-redeclare' });
    await waitFor(() => handled.some((m) => m.messageId === 'after-redeclare'), { what: 'a message after re-declaration' });
  });

  it('stops cleanly: a message in progress finishes and is acked before the channel closes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const { handled, handler } = recorder();
    const { consumer, topology } = await startConsumer(async (message) => {
      started = true;
      await gate;
      await handler(message);
    });
    await broker.publish(KEY, '{}', { messageId: 'slow' });
    await waitFor(() => started, { what: 'the handler to start' });
    const stopped = consumer.stop();
    release();
    await stopped;
    expect(handled.map((m) => m.messageId)).toEqual(['slow']);
    expect(await broker.messageCount(topology.queue)).toBe(0);
  });
});
