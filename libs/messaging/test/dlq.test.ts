import { AmqpConnection, DeadLetterError, EventConsumer, RETRY_HEADERS, silentLogger, type ConsumerTopology, type IncomingMessage } from '@school/messaging';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { dlq, EXIT } from '../src/cli/dlq.command.js';
import type { DeadLetter } from '../src/dead-letters/dead-letter.js';
import { waitFor } from './support/wait.js';

const KEY = 'identity.password_changed';
const OTHER_KEY = 'feedback.submitted';
/** Any consumers, not only the notifier: the tool derives each one's dead-letter queue from its name. */
const CONSUMER = 'orders';
const OTHER_CONSUMER = 'billing';

describe('npm run dlq (real RabbitMQ, real consumer)', () => {
  let broker: TestBroker;
  let topology: ConsumerTopology;
  let handled: IncomingMessage[];
  /** Message ids the handler refuses (DeadLetterError) or fails on (an error, retried once, then dead-lettered). */
  let refuse: Set<string>;
  let fail: Set<string>;
  const stops: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('dlq'));
    handled = [];
    refuse = new Set();
    fail = new Set();
    topology = await startConsumer(CONSUMER);
  });

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await broker.destroy();
  });

  async function startConsumer(name: string): Promise<ConsumerTopology> {
    const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: `dlq-test-${name}`, logger: silentLogger });
    const consumerTopology = broker.consumer(name, [KEY, OTHER_KEY], { delaysMs: [20], maxRetries: 1 });
    const consumer = new EventConsumer(connection, {
      topology: consumerTopology,
      prefetch: 5,
      logger: silentLogger,
      handler: async (message) => {
        if (refuse.has(message.messageId ?? '')) throw new DeadLetterError('payload does not match its schema');
        if (fail.has(message.messageId ?? '')) throw new Error('SMTP said 554');
        handled.push(message);
      },
    });
    consumer.start();
    stops.push(async () => {
      await consumer.stop();
      await connection.close();
    });
    await waitFor(() => consumer.isConsuming(), { what: 'the subscription' });
    return consumerTopology;
  }

  async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await dlq(
      argv,
      { url: TEST_AMQP_URL, prefix: broker.prefix, consumers: [CONSUMER, OTHER_CONSUMER] },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  async function listed(): Promise<DeadLetter[]> {
    const { status, out } = await run('list', '--json');
    expect(status).toBe(EXIT.ok);
    return (JSON.parse(out) as { queues: Array<{ messages: DeadLetter[] }> }).queues.flatMap((queue) => queue.messages);
  }

  async function parked(count: number): Promise<void> {
    await waitFor(async () => (await broker.messageCount(topology.deadLetterQueue)) === count, { what: `${count} parked message(s)` });
  }

  /** Three messages dead-lettered by the consumer: two refused at once, one after its retries, published under OTHER_KEY. */
  async function parkThree(): Promise<void> {
    refuse = new Set(['refused-1', 'refused-2']);
    fail = new Set(['exhausted']);
    await broker.publish(KEY, '{"n":1}', { messageId: 'refused-1', type: KEY, headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    await parked(1);
    await broker.publish(KEY, '{"n":2}', { messageId: 'refused-2', type: KEY });
    await parked(2);
    await broker.publish(OTHER_KEY, '{"n":3}', { messageId: 'exhausted', type: OTHER_KEY });
    await parked(3);
  }

  it('lists what the consumer parked, with the reasons, and leaves it parked: a second list shows the same, in the same order', async () => {
    await parkThree();
    const before = Date.now();
    const first = await listed();
    expect(first.map((m) => m.messageId)).toEqual(['refused-1', 'refused-2', 'exhausted']);
    expect(first[0]).toMatchObject({
      queue: topology.deadLetterQueue,
      routingKey: KEY,
      type: KEY,
      reason: 'rejected',
      from: topology.queue,
      retryCount: 0,
      lastError: null,
      bytes: 7,
    });
    // Retried first: the broker's record names the work queue, the original key travels in a header.
    expect(first[2]).toMatchObject({ routingKey: OTHER_KEY, reason: 'rejected', retryCount: 1, lastError: 'SMTP said 554' });
    for (const message of first) expect(Math.abs(Date.parse(message.deadLetteredAt ?? '') - before)).toBeLessThan(60_000);

    expect(await listed()).toEqual(first);
    // Listing looks through the messages and leaves them: back in the queue once the broker has processed the command's close.
    await waitFor(async () => (await broker.messageCount(topology.deadLetterQueue)) === 3, { what: 'the three listed messages back in the dead-letter queue' });
    expect(handled).toEqual([]);

    const text = await run('list');
    expect(text.status).toBe(EXIT.ok);
    expect(text.out).toContain(`${topology.deadLetterQueue}: 3 messages`);
    expect(text.out).toContain(`1. id refused-1  routing key ${KEY}  type ${KEY}  7 bytes`);
    expect(text.out).toMatch(new RegExp(`dead-lettered \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z from ${topology.queue.replace(/\./g, '\\.')}: rejected, 0 retries`));
    expect(text.out).toContain('last error: SMTP said 554');
  });

  it('replays one message by id to the events exchange: the consumer handles it under its routing key, id and headers, retry history reset', async () => {
    await parkThree();
    refuse.clear();
    fail.clear();
    const { status, out } = await run('replay', '--id', 'refused-1');
    expect(status).toBe(EXIT.ok);
    expect(out).toBe(`${topology.deadLetterQueue}: replayed 1 message\n  refused-1 -> ${KEY}`);
    await waitFor(() => handled.length === 1, { what: 'the replayed message' });
    expect(handled[0]).toMatchObject({ messageId: 'refused-1', routingKey: KEY, deliveryCount: 1 });
    expect(handled[0]?.body.toString()).toBe('{"n":1}');
    expect(handled[0]?.headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect((await listed()).map((m) => m.messageId)).toEqual(['refused-2', 'exhausted']);

    const missing = await run('replay', '--id', 'no-such-id');
    expect(missing.status).toBe(EXIT.failed);
    expect(missing.err).toBe(`dlq: no message with id no-such-id in ${topology.deadLetterQueue}`);
    // The messages it looked through come back to the queue once the broker has processed the command's close.
    await waitFor(async () => (await broker.messageCount(topology.deadLetterQueue)) === 2, { what: 'the two parked messages back in the dead-letter queue' });
  });

  it('replays every parked message once: the retried one goes back under its original key with no retry headers', async () => {
    await parkThree();
    refuse.clear();
    fail.clear();
    const { status, out } = await run('replay', '--json');
    expect(status).toBe(EXIT.ok);
    expect((JSON.parse(out) as { replayed: DeadLetter[] }).replayed.map((m) => m.messageId)).toEqual(['refused-1', 'refused-2', 'exhausted']);
    await waitFor(() => handled.length === 3, { what: 'the three replayed messages' });
    const exhausted = handled.find((m) => m.messageId === 'exhausted');
    expect(exhausted?.routingKey).toBe(OTHER_KEY);
    for (const header of Object.values(RETRY_HEADERS)) expect(exhausted?.headers).not.toHaveProperty(header);
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
  });

  it('a message refused again after its replay is parked again, not replayed twice in the same run', async () => {
    refuse = new Set(['stubborn']);
    await broker.publish(KEY, '{}', { messageId: 'stubborn', type: KEY });
    await parked(1);
    expect(await run('replay')).toEqual({ status: EXIT.ok, out: `${topology.deadLetterQueue}: replayed 1 message\n  stubborn -> ${KEY}`, err: '' });
    await parked(1);
    expect((await listed()).map((m) => m.messageId)).toEqual(['stubborn']);
  });

  it('keeps a message parked when its copy cannot be routed (no queue bound for its key) and says so', async () => {
    await broker.sendToQueue(topology.deadLetterQueue, '{}', { messageId: 'orphan', type: 'nobody.binds.this' });
    const { status, err } = await run('replay');
    expect(status).toBe(EXIT.failed);
    expect(err).toBe(`dlq: no queue is bound for routing key "nobody.binds.this"; 0 replayed before it, the rest left in ${topology.deadLetterQueue}`);
    expect((await listed()).map((m) => m.messageId)).toEqual(['orphan']);
  });

  it('purges only with --yes, and says how many messages went', async () => {
    await parkThree();
    const refused = await run('purge');
    expect(refused.status).toBe(EXIT.usage);
    expect(refused.err).toBe(`dlq: ${topology.deadLetterQueue} holds 3 messages; purge deletes them for good: add --yes`);
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(3);

    const purged = await run('purge', '--yes');
    expect(purged).toEqual({ status: EXIT.ok, out: `${topology.deadLetterQueue}: purged 3 messages`, err: '' });
    expect(await listed()).toEqual([]);
  });

  it('asks for --queue when several consumers have a dead-letter queue, and accepts a consumer or a queue name', async () => {
    const other = await startConsumer(OTHER_CONSUMER);
    const replay = await run('replay');
    expect(replay.status).toBe(EXIT.usage);
    expect(replay.err).toBe(`dlq: several dead-letter queues exist (${topology.deadLetterQueue}, ${other.deadLetterQueue}): pick one with --queue`);

    refuse = new Set(['billing-1']);
    await broker.publish(KEY, '{}', { messageId: 'billing-1', type: KEY });
    await waitFor(async () => (await broker.messageCount(other.deadLetterQueue)) === 1 && (await broker.messageCount(topology.deadLetterQueue)) === 1, {
      what: 'one parked per consumer',
    });
    const all = await run('list', '--json');
    expect((JSON.parse(all.out) as { queues: Array<{ queue: string; messages: DeadLetter[] }> }).queues.map((q) => [q.queue, q.messages.length])).toEqual([
      [topology.deadLetterQueue, 1],
      [other.deadLetterQueue, 1],
    ]);
    expect((await run('purge', '--yes', '--queue', OTHER_CONSUMER)).out).toBe(`${other.deadLetterQueue}: purged 1 message`);
    expect((await run('purge', '--yes', '--queue', topology.deadLetterQueue)).out).toBe(`${topology.deadLetterQueue}: purged 1 message`);
    expect((await run('list', '--queue', 'nobody')).err).toBe(`dlq: no dead-letter queue "nobody"; there are: ${topology.deadLetterQueue}, ${other.deadLetterQueue}`);
  });

  it('answers a wrong command line with the usage and status 2, and an unreachable broker with one line and status 1', async () => {
    for (const argv of [[], ['drop'], ['list', '--id', 'x'], ['replay', '--yes'], ['list', '--nope']]) {
      const { status, err } = await run(...argv);
      expect(status).toBe(EXIT.usage);
      expect(err).toContain('usage: npm run dlq --');
    }
    const nothing = await dlq(['list'], { url: TEST_AMQP_URL, prefix: broker.prefix, consumers: [OTHER_CONSUMER] }, { out: () => undefined, err: () => undefined });
    expect(nothing).toBe(EXIT.ok);
    expect(await dlq(['purge', '--yes'], { url: TEST_AMQP_URL, prefix: broker.prefix, consumers: [OTHER_CONSUMER] }, { out: () => undefined, err: () => undefined })).toBe(
      EXIT.failed,
    );

    const out: string[] = [];
    const err: string[] = [];
    const status = await dlq(
      ['list'],
      { url: 'amqp://guest:guest@127.0.0.1:1', prefix: broker.prefix, consumers: [CONSUMER] },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    expect(status).toBe(EXIT.failed);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^dlq: cannot reach the broker: /);
  });
});
