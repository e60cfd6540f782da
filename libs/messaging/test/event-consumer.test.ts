import { AmqpConnection, DeadLetterError, EventConsumer, silentLogger, type IncomingMessage, type MessageHandler } from '@school/messaging';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { delay, waitFor } from './support/wait.js';

const KEY = 'identity.password_changed';

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

  async function startConsumer(handler: MessageHandler, { url = TEST_AMQP_URL, prefetch = 5 } = {}) {
    const connection = new AmqpConnection({ url, name: 'consumer-test', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
    const consumer = new EventConsumer(connection, {
      names: broker.names,
      bindings: [KEY],
      prefetch,
      handler,
      logger: silentLogger,
      retry: { initialMs: 50, maxMs: 200 },
    });
    consumer.start();
    cleanups.push(async () => {
      await consumer.stop();
      await connection.close();
    });
    await waitFor(() => consumer.isConsuming(), { what: 'the subscription' });
    return { connection, consumer };
  }

  function recorder() {
    const handled: IncomingMessage[] = [];
    const handler: MessageHandler = async (message) => {
      handled.push(message);
    };
    return { handled, handler };
  }

  it('declares a durable quorum queue with a dead-letter queue, and acks what the handler accepted', async () => {
    const { handled, handler } = recorder();
    await startConsumer(handler);
    await broker.publish(KEY, '{"n":1}', { messageId: 'm-1' });
    await waitFor(() => handled.length === 1, { what: 'the message' });
    expect(handled[0]).toMatchObject({ messageId: 'm-1', routingKey: KEY, deliveryCount: 1 });
    await waitFor(async () => (await broker.messageCount(broker.names.notifierQueue)) === 0, { what: 'the ack' });
    expect(await broker.messageCount(broker.names.notifierDeadLetterQueue)).toBe(0);
    expect(await broker.isQuorumQueue(broker.names.notifierQueue)).toBe(true);
    expect(await broker.isQuorumQueue(broker.names.notifierDeadLetterQueue)).toBe(true);
  });

  it('dead-letters what the handler refuses and goes on with the next message', async () => {
    const { handled, handler } = recorder();
    await startConsumer(async (message) => {
      if (message.body.toString() === 'poison') throw new DeadLetterError('not JSON');
      await handler(message);
    });
    await broker.publish(KEY, 'poison', { messageId: 'bad' });
    await broker.publish(KEY, '{"ok":true}', { messageId: 'good' });

    await waitFor(() => handled.length === 1, { what: 'the good message' });
    expect(handled[0]?.messageId).toBe('good');
    const [dead] = await waitFor(async () => {
      const messages = await broker.drain(broker.names.notifierDeadLetterQueue);
      return messages.length ? messages : null;
    }, { what: 'the dead-lettered message' });
    expect(dead?.properties.messageId).toBe('bad');
    expect(dead?.content.toString()).toBe('poison');
  });

  it('hands a message that failed for a transient reason back to the queue and handles it on redelivery', async () => {
    const { handled, handler } = recorder();
    let failures = 2;
    await startConsumer(async (message) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database unavailable');
      }
      await handler(message);
    });
    await broker.publish(KEY, '{}', { messageId: 'retry-me' });
    await waitFor(() => handled.length === 1, { what: 'the redelivered message' });
    expect(handled[0]).toMatchObject({ messageId: 'retry-me', deliveryCount: 3 });
  });

  it('re-subscribes after the connection drops, and re-declares a queue deleted behind its back', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    const { handled, handler } = recorder();
    const { consumer } = await startConsumer(handler, { url: proxy.urlFor(TEST_AMQP_URL) });

    await proxy.cut();
    await waitFor(() => !consumer.isConsuming(), { what: 'the drop' });
    await delay(200);
    await proxy.resume();
    await waitFor(() => consumer.isConsuming(), { what: 're-subscription after reconnect' });
    await broker.publish(KEY, '{}', { messageId: 'after-reconnect' });
    await waitFor(() => handled.some((m) => m.messageId === 'after-reconnect'), { what: 'a message after the reconnect' });

    // The broker cancels consumers of a deleted queue; the consumer reconnects, which re-runs setup.
    await broker.deleteQueue(broker.names.notifierQueue);
    await waitFor(async () => consumer.isConsuming() && (await broker.messageCount(broker.names.notifierQueue)) === 0, {
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
    const { handled, handler } = recorder();
    const { consumer } = await startConsumer(async (message) => {
      await gate;
      await handler(message);
    });
    await broker.publish(KEY, '{}', { messageId: 'slow' });
    await delay(100);
    const stopped = consumer.stop();
    release();
    await stopped;
    expect(handled.map((m) => m.messageId)).toEqual(['slow']);
    expect(await broker.messageCount(broker.names.notifierQueue)).toBe(0);
  });
});
