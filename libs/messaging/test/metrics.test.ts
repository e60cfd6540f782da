import { Registry } from '@school/metrics';
import { AmqpConnection, EventConsumer, Outbox, OutboxRelay, registerOutboxMetrics, registerQueueMetrics, silentLogger } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { OutboxDb, TEST_DATABASE_URL } from './support/outbox-db.js';
import { waitFor } from './support/wait.js';

const changed = (userId: string) => ({ userId, email: `${userId}@example.com`, name: null, changedAt: new Date().toISOString() });

describe('outbox metrics', () => {
  let db: OutboxDb;
  let relay: OutboxRelay;

  beforeEach(async () => {
    db = await OutboxDb.create();
  });

  afterEach(async () => {
    await relay.stop();
    await db.drop();
  });

  it('reports the pending rows, the age of the oldest and the parked rows, read at scrape time', async () => {
    // A relay whose broker is down publishes nothing: rows stay pending.
    const broker = { isConnected: () => false, onConnect: () => () => undefined };
    relay = new OutboxRelay({ databaseUrl: TEST_DATABASE_URL, schema: db.schema, publisher: { publish: async () => undefined }, broker, logger: silentLogger });
    const registry = new Registry();
    registerOutboxMetrics(registry, relay, db.schema);
    expect(await registry.metrics()).toContain('outbox_pending_events 0');

    const outbox = new Outbox(db.schema);
    const ids = await db.transaction(async (tx) => [
      await outbox.record(tx, EVENT_TYPES.passwordChanged, changed('u1')),
      await outbox.record(tx, EVENT_TYPES.passwordChanged, changed('u2')),
      await outbox.record(tx, EVENT_TYPES.passwordChanged, changed('u3')),
    ]);
    await db.pool.query(`UPDATE "${db.schema}".outbox_events SET created_at = now() - interval '90 seconds' WHERE id = $1`, [ids[0]]);
    await db.pool.query(`UPDATE "${db.schema}".outbox_events SET parked_at = now(), created_at = now() - interval '1 hour' WHERE id = $1`, [ids[2]]);

    const text = await registry.metrics();
    expect(text).toContain('outbox_pending_events 2');
    expect(text).toContain('outbox_parked_events 1');
    const age = Number(/^outbox_oldest_pending_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);
  });
});

describe('queue metrics', () => {
  let broker: TestBroker;
  let connection: AmqpConnection;

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('metrics'));
    connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'metrics-test', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
  });

  afterEach(async () => {
    await connection.close();
    await broker.destroy();
  });

  it("reports the consumer's ready messages and its dead-letter queue, NaN while the broker is away", async () => {
    const topology = broker.consumer('orders', [EVENT_TYPES.passwordChanged]);
    // The consumer declares its queues; stopped, it leaves what arrives next in them.
    const consumer = new EventConsumer(connection, { topology, prefetch: 1, handler: async () => undefined, logger: silentLogger });
    consumer.start();
    await waitFor(() => consumer.isConsuming(), { what: 'the subscription' });
    await consumer.stop();

    const registry = new Registry();
    const metrics = registerQueueMetrics(registry, connection, topology);
    for (let index = 0; index < 3; index += 1) await broker.publish(EVENT_TYPES.passwordChanged, JSON.stringify(changed(`u${index}`)));
    for (let index = 0; index < 2; index += 1) await broker.sendToQueue(topology.deadLetterQueue, '{}');

    const text = await registry.metrics();
    expect(text).toContain(`amqp_queue_messages{queue="${topology.queue}"} 3`);
    expect(text).toContain(`amqp_dead_letter_messages{queue="${topology.deadLetterQueue}"} 2`);

    await metrics.close();
    await connection.close();
    expect(await registry.metrics()).toContain(`amqp_dead_letter_messages{queue="${topology.deadLetterQueue}"} Nan`);
  });
});
