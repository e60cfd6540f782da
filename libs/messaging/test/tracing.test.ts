import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AmqpConnection, EventConsumer, EventPublisher, Outbox, OutboxRelay, silentLogger } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { enableTraceContext } from './support/trace-context.js';
import { OutboxDb, TEST_DATABASE_URL } from './support/outbox-db.js';
import { waitFor } from './support/wait.js';

const exporter = new InMemorySpanExporter();

describe('trace of an event: recording transaction -> relay publish -> consumer (real Postgres and RabbitMQ)', () => {
  let db: OutboxDb;
  let broker: TestBroker;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(() => {
    enableTraceContext();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  });

  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  beforeEach(async () => {
    db = await OutboxDb.create();
    broker = await TestBroker.connect(uniqueBrokerPrefix('tracing'));
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
    await db.drop();
  });

  it('publishes in a producer span below the recording span, and handles in a consumer span below the publish', async () => {
    const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'tracing-test', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
    const handledIn: string[] = [];
    const topology = broker.consumer('orders', [EVENT_TYPES.passwordChanged]);
    const consumer = new EventConsumer(connection, {
      topology,
      prefetch: 1,
      logger: silentLogger,
      handler: async () => void handledIn.push(trace.getActiveSpan()?.spanContext().spanId ?? 'none'),
    });
    consumer.start();
    const publisher = new EventPublisher(connection, { names: broker.names });
    const relay = new OutboxRelay({ databaseUrl: TEST_DATABASE_URL, schema: db.schema, publisher, broker: connection, logger: silentLogger, pollIntervalMs: 60_000 });
    relay.start();
    cleanups.push(async () => {
      await relay.stop();
      await consumer.stop();
      await publisher.close();
      await connection.close();
    });
    await waitFor(() => consumer.isConsuming(), { what: 'the subscription' });

    const outbox = new Outbox(db.schema);
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('change password', async (span) => {
      await db.transaction((tx) => outbox.record(tx, EVENT_TYPES.passwordChanged, { userId: 'u1', email: 'u1@example.com', name: null, changedAt: new Date().toISOString() }));
      span.end();
    });
    await waitFor(() => handledIn.length === 1, { what: 'the handled event' });

    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.find((span) => span.name === name) as ReadableSpan;
    const recording = named('change password');
    const publish = named(`publish ${EVENT_TYPES.passwordChanged}`);
    const processing = await waitFor(() => named(`process ${EVENT_TYPES.passwordChanged}`), { what: 'the consumer span' });
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(processing.kind).toBe(SpanKind.CONSUMER);
    for (const span of [publish, processing]) expect(span.spanContext().traceId).toBe(recording.spanContext().traceId);
    expect(publish.parentSpanContext?.spanId).toBe(recording.spanContext().spanId);
    expect(processing.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(handledIn).toEqual([processing.spanContext().spanId]);
  });
});
