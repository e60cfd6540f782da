import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AmqpConnection, EventPublisher, Outbox, OutboxRelay, silentLogger, type ConfirmedPublisher, type OutboxRelayOptions } from '@school/messaging';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { enableTraceContext } from './support/trace-context.js';
import { OutboxDb, TEST_DATABASE_URL } from './support/outbox-db.js';
import { delay, waitFor } from './support/wait.js';

const passwordChanged = (n: number): EventPayload<'identity.password_changed'> => ({
  userId: `user-${n}`,
  email: `user${n}@example.com`,
  name: `User ${n}`,
  changedAt: new Date().toISOString(),
});

/** The relay's safety poll in these tests: what it publishes sooner came from the commit's NOTIFY. */
const POLL_INTERVAL_MS = 60_000;

describe('outbox and relay (real Postgres and RabbitMQ)', () => {
  let db: OutboxDb;
  let broker: TestBroker;
  let tap: string;
  let outbox: Outbox;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(() => {
    enableTraceContext();
  });

  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  beforeEach(async () => {
    db = await OutboxDb.create();
    broker = await TestBroker.connect(uniqueBrokerPrefix('relay'));
    tap = await broker.tap();
    outbox = new Outbox(db.schema);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
    await db.drop();
  });

  /** Waits until `count` messages reached the tap queue and returns them. */
  async function nextMessages(count: number) {
    const messages: Awaited<ReturnType<TestBroker['drain']>> = [];
    await waitFor(
      async () => {
        messages.push(...(await broker.drain(tap, count - messages.length)));
        return messages.length >= count;
      },
      { what: `${count} message(s) on the tap queue` },
    );
    return messages;
  }

  /** A connection, publisher and relay on the test schema and exchange; stopped after the test. */
  function startRelay(overrides: Partial<OutboxRelayOptions> & { amqpUrl?: string; wrap?: (p: ConfirmedPublisher) => ConfirmedPublisher } = {}) {
    const { amqpUrl = TEST_AMQP_URL, wrap = (p) => p, ...relayOptions } = overrides;
    const connection = new AmqpConnection({ url: amqpUrl, name: 'relay-test', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
    const publisher = new EventPublisher(connection, { names: broker.names, confirmTimeoutMs: scaled(5_000) });
    const relay = new OutboxRelay({
      databaseUrl: TEST_DATABASE_URL,
      schema: db.schema,
      publisher: wrap(publisher),
      broker: connection,
      logger: silentLogger,
      pollIntervalMs: POLL_INTERVAL_MS,
      retry: { initialMs: 100, maxMs: 400 },
      ...relayOptions,
    });
    relay.start();
    cleanups.push(async () => {
      await relay.stop();
      await publisher.close();
      await connection.close();
    });
    return { relay, connection };
  }

  it('publishes a committed event at once (NOTIFY, not the poll): messageId = row id, persistent JSON, traceparent', async () => {
    const { connection } = startRelay();
    await connection.waitForConnect();
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    const payload = passwordChanged(1);

    const started = Date.now();
    const id = await context.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () => db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, payload)));

    const [message] = await nextMessages(1);
    const lagMs = Date.now() - started;
    expect(lagMs).toBeLessThan(POLL_INTERVAL_MS / 2); // well before the safety poll: only the commit's NOTIFY can explain this
    expect(message?.properties.messageId).toBe(id);
    expect(message?.fields.routingKey).toBe('identity.password_changed');
    expect(message?.properties.deliveryMode).toBe(2);
    expect(message?.properties.contentType).toBe('application/json');
    expect(message?.properties.type).toBe('identity.password_changed');
    expect(message?.properties.headers?.['traceparent']).toBe(`00-${spanContext.traceId}-${spanContext.spanId}-01`);
    expect(JSON.parse(message?.content.toString() ?? '')).toEqual(payload);

    const [row] = await waitFor(async () => ((await db.rows())[0]?.sent_at ? db.rows() : null), { what: 'sent_at' });
    expect(row).toMatchObject({ id, attempts: 0, last_error: null });
  });

  it('does not mark sent an event no queue is bound for: the row keeps the reason and goes out once a consumer declared its queue', async () => {
    await broker.deleteQueue(tap); // producers declare only the exchange: nothing is bound now
    const { connection } = startRelay();
    await connection.waitForConnect();
    const id = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)));

    const failed = await waitFor(async () => (await db.rows()).find((row) => row.attempts >= 1), { what: 'the returned publish' });
    expect(failed).toMatchObject({ id, sent_at: null, last_error: 'no queue is bound for routing key "identity.password_changed"' });
    tap = await broker.tap(EVENT_TYPES.passwordChanged);
    const [message] = await nextMessages(1);
    expect(message?.properties.messageId).toBe(id);
    await waitFor(async () => (await db.rows())[0]?.sent_at, { what: 'sent_at once routable' });
  });

  it('records nothing when the business transaction rolls back, and refuses an invalid payload', async () => {
    const { connection } = startRelay();
    await connection.waitForConnect();
    await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)), { rollback: true });
    await expect(db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, { ...passwordChanged(2), email: 'not-an-email' }))).rejects.toThrow(/email/i);
    const kept = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(3)));

    const messages = await nextMessages(1);
    await delay(200);
    messages.push(...(await broker.drain(tap)));
    expect(messages.map((m) => m.properties.messageId)).toEqual([kept]);
    expect(await db.rows()).toHaveLength(1);
  });

  it('shares the table between two relay replicas: each of 300 rows published exactly once', async () => {
    const a = startRelay({ batchSize: 20 });
    const b = startRelay({ batchSize: 20 });
    await Promise.all([a.connection.waitForConnect(), b.connection.waitForConnect()]);
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, batch) =>
        db.transaction(async (tx) => {
          const recorded: string[] = [];
          for (let i = 0; i < 10; i += 1) recorded.push(await outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(batch * 10 + i)));
          return recorded;
        }),
      ),
    );

    const seen: string[] = [];
    await waitFor(
      async () => {
        seen.push(...(await broker.drain(tap, 500)).map((m) => m.properties.messageId as string));
        return seen.length >= 300;
      },
      { what: '300 messages' },
    );
    await delay(300);
    seen.push(...(await broker.drain(tap)).map((m) => m.properties.messageId as string));
    expect(seen).toHaveLength(300);
    expect(new Set(seen)).toEqual(new Set(ids.flat()));
    expect(a.relay.stats.published).toBeGreaterThan(0);
    expect(b.relay.stats.published).toBeGreaterThan(0);
    expect(a.relay.stats.published + b.relay.stats.published).toBe(300);
  });

  it('keeps accepting writes while the broker is unreachable and delivers every event once it is back', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    const { connection, relay } = startRelay({ amqpUrl: proxy.urlFor(TEST_AMQP_URL) });
    await connection.waitForConnect();

    await proxy.cut();
    await waitFor(() => !connection.isConnected(), { what: 'the connection to drop' });
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) ids.push(await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(i))));
    await delay(300);
    const pending = await db.rows();
    expect(pending.every((row) => row.sent_at === null)).toBe(true);
    expect(relay.stats.published).toBe(0);

    await proxy.resume();
    const seen: string[] = [];
    await waitFor(
      async () => {
        seen.push(...(await broker.drain(tap)).map((m) => m.properties.messageId as string));
        return seen.length >= 40;
      },
      { what: 'all 40 events after the broker came back' },
    );
    expect(new Set(seen)).toEqual(new Set(ids));
    await waitFor(async () => (await db.rows()).every((row) => row.sent_at !== null), { what: 'every row marked sent' });
  });

  it('survives its database connections dropping while its queries are in flight, and relays every event once the database is back', async () => {
    const database = await TcpProxy.start(TEST_DATABASE_URL);
    cleanups.push(() => database.close());
    // A claim the database committed but whose answer the cut lost stays reserved for the lease, as
    // it must (the relay cannot know it was not publishing them): a short one keeps the wait short.
    const { connection } = startRelay({ databaseUrl: database.urlFor(TEST_DATABASE_URL), pollIntervalMs: 100, claimLeaseMs: 4_000 });
    await connection.waitForConnect();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(i))));
    // Slow queries keep one of the relay's connections checked out when the cut comes.
    database.delay(300);
    await delay(250);
    await database.cut();
    for (let i = 5; i < 10; i += 1) ids.push(await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(i))));
    await delay(500);
    database.delay(0);
    await database.resume();

    const seen = new Set<string>();
    await waitFor(
      async () => {
        for (const message of await broker.drain(tap)) seen.add(message.properties.messageId as string);
        return seen.size >= ids.length;
      },
      { what: 'all 10 events after the database came back' },
    );
    expect(seen).toEqual(new Set(ids));
  });

  it('marks a row sent only after the confirm: a failed publish is retried with backoff and its error kept', async () => {
    let failuresLeft = 1;
    const { connection } = startRelay({
      wrap: (publisher) => ({
        publish: async (event) => {
          if (failuresLeft > 0) {
            failuresLeft -= 1;
            throw new Error('simulated nack');
          }
          await publisher.publish(event);
        },
      }),
    });
    await connection.waitForConnect();
    const id = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)));

    const failed = await waitFor(async () => (await db.rows()).find((row) => row.attempts === 1), { what: 'the failed attempt' });
    expect(failed).toMatchObject({ id, sent_at: null, last_error: 'simulated nack' });
    const [message] = await nextMessages(1);
    expect(message?.properties.messageId).toBe(id);
    await waitFor(async () => (await db.rows())[0]?.sent_at, { what: 'sent_at after the retry' });
  });

  it('retries a failed row at its due time although drains that failed nothing ran meanwhile (long before the poll)', async () => {
    const failing = new Set<string>();
    // A poll far beyond every (scaled) wait of this test: only the due timer can bring the retry.
    const { connection } = startRelay({
      pollIntervalMs: 3_600_000,
      retry: { initialMs: 1_000, maxMs: 1_000 },
      wrap: (publisher) => ({
        publish: async (event) => {
          if (failing.delete(event.id)) throw new Error('simulated nack');
          await publisher.publish(event);
        },
      }),
    });
    await connection.waitForConnect();
    // Marked failing before its transaction commits, so before the NOTIFY wakes the relay.
    const first = await db.transaction(async (tx) => {
      const id = await outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1));
      failing.add(id);
      return id;
    });
    await waitFor(async () => (await db.rows()).find((row) => row.attempts === 1), { what: 'the failed attempt' });
    // Woken by its NOTIFY, this drain publishes the second row and fails nothing.
    const second = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(2)));
    const seen = new Set<string>();
    await waitFor(
      async () => {
        for (const message of await broker.drain(tap)) seen.add(message.properties.messageId as string);
        return seen.has(first) && seen.has(second);
      },
      { what: 'the failed row retried at its due time, not at the poll' },
    );
  });

  it('holds no transaction, no connection and no row lock while it waits for the confirms', async () => {
    const observed: Array<{ openTransactions: number; relayConnectionsBusy: number; rowLockFree: boolean }> = [];
    const { connection } = startRelay({
      wrap: (publisher) => ({
        publish: async (event) => {
          // The publish waits here, so a transaction the relay held across it would be open in every
          // sample; one of its other connections may be between two statements of its own (its
          // LISTEN starting, a poll's claim finding nothing) on a loaded machine, and settle.
          const relayActivity = async () =>
            (
              await db.pool.query<{ open: number; busy: number }>(
                `SELECT count(*) FILTER (WHERE xact_start IS NOT NULL)::int AS open, count(*) FILTER (WHERE state <> 'idle')::int AS busy
                   FROM pg_stat_activity WHERE application_name = $1`,
                [`outbox-relay:${db.schema}`],
              )
            ).rows[0];
          const deadline = Date.now() + scaled(2_000);
          let activity = await relayActivity();
          while ((activity?.open !== 0 || activity?.busy !== 0) && Date.now() < deadline) {
            await delay(50);
            activity = await relayActivity();
          }
          const rowLockFree = await db
            .transaction(async (_tx, client) => {
              await client.query(`SELECT id FROM "${db.schema}".outbox_events WHERE id = $1 FOR UPDATE NOWAIT`, [event.id]);
              return true;
            })
            .catch(() => false);
          observed.push({ openTransactions: activity?.open ?? -1, relayConnectionsBusy: activity?.busy ?? -1, rowLockFree });
          await publisher.publish(event);
        },
      }),
    });
    await connection.waitForConnect();
    const id = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)));
    const [message] = await nextMessages(1);
    expect(message?.properties.messageId).toBe(id);
    expect(observed).toEqual([{ openTransactions: 0, relayConnectionsBusy: 0, rowLockFree: true }]);
    await waitFor(async () => (await db.rows())[0]?.sent_at, { what: 'sent_at' });
  });

  it('parks a row that keeps failing after maxAttempts, with its reason, and goes on with the others', async () => {
    const { connection, relay } = startRelay({
      maxAttempts: 3,
      retry: { initialMs: 20, maxMs: 40 },
      wrap: (publisher) => ({
        publish: async (event) => {
          if (JSON.parse(event.body.toString()).userId === 'user-1') throw new Error('broker said no');
          await publisher.publish(event);
        },
      }),
    });
    await connection.waitForConnect();
    const hopeless = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)));
    const parked = await waitFor(async () => (await db.rows()).find((row) => row.id === hopeless && row.parked_at !== null), { what: 'the parked row' });
    expect(parked).toMatchObject({ attempts: 3, sent_at: null, last_error: 'broker said no' });
    expect(relay.stats).toMatchObject({ failed: 3, parked: 1 });

    const fine = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(2)));
    const [message] = await nextMessages(1);
    expect(message?.properties.messageId).toBe(fine);
    await delay(300);
    expect((await db.rows()).find((row) => row.id === hopeless)).toMatchObject({ attempts: 3, sent_at: null });
    expect(relay.stats.failed).toBe(3);
  });

  it('re-sends a row whose relay stalled between publishing and marking once its claim lease ended (at least once)', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Relay A publishes, then never gets to mark the row (as if it died there).
    const a = startRelay({
      claimLeaseMs: 500,
      wrap: (publisher) => ({
        publish: async (event) => {
          await publisher.publish(event);
          await stalled;
        },
      }),
    });
    await a.connection.waitForConnect();
    const id = await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)));
    const [first] = await nextMessages(1);
    expect(first?.properties.messageId).toBe(id);
    expect((await db.rows())[0]?.sent_at).toBeNull();

    const b = startRelay({ claimLeaseMs: 500, pollIntervalMs: 100 });
    const [again] = await nextMessages(1);
    expect(again?.properties.messageId).toBe(id);
    await waitFor(async () => (await db.rows())[0]?.sent_at, { what: 'sent_at from relay B' });
    expect(b.relay.stats.published).toBe(1);
    release();
  });

  it('prunes rows sent before the retention period, and only those', async () => {
    const ids = await db.transaction(async (tx) => [
      await outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(1)),
      await outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(2)),
    ]);
    await db.pool.query(`UPDATE "${db.schema}".outbox_events SET sent_at = now() - interval '2 hours' WHERE id = $1`, [ids[0]]);
    await db.pool.query(`UPDATE "${db.schema}".outbox_events SET sent_at = now() - interval '10 minutes' WHERE id = $1`, [ids[1]]);
    await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, passwordChanged(3)));

    startRelay({ retentionMs: 3600_000, broker: { isConnected: () => false, onConnect: () => () => undefined } });
    await waitFor(async () => (await db.rows()).length === 2, { what: 'the old sent row to be pruned' });
    const left = await db.rows();
    expect(left.map((row) => row.id)).not.toContain(ids[0]);
    expect(left.map((row) => row.id)).toContain(ids[1]);
  });
});
