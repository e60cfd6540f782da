import { type BeforeApplicationShutdown, Controller, type INestApplication, Injectable, Module, type Type, UseFilters } from '@nestjs/common';
import { DeadLetterError, type ConsumerTopology, type IncomingMessage } from '@school/messaging';
import { ALL_EVENT_TYPES, EVENT_TYPES } from '@school/contracts';
import { AmqpEventContext, AmqpEventTransport, Ctx, EventErrorFilter, EventPattern, EventTransportModule, MessagingModule, Payload } from '@school/messaging/nest';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createServiceApp, HealthModule, ReadinessRegistry } from '@school/service';
import { createLogger } from '@school/telemetry';
import { delay, waitFor } from './support/wait.js';

const KEY = EVENT_TYPES.passwordChanged;
const CONSUMER = 'transport-test';
const RETRY = { delaysMs: [50, 100], maxRetries: 3 };

interface Handled {
  body: unknown;
  message: IncomingMessage;
}

/** What the test controllers do with each event; each test sets it. */
let behaviour: (handled: Handled) => Promise<void> = async () => undefined;

/** Throws `error()` on the first `times` deliveries, then records each delivery in `handled`. */
function failingFirst(times: number, error: () => Error, handled: Handled[]): typeof behaviour {
  let left = times;
  return async (event) => {
    if (left > 0) {
      left -= 1;
      throw error();
    }
    handled.push(event);
  };
}

@Controller()
@UseFilters(EventErrorFilter)
class EventsController {
  @EventPattern(ALL_EVENT_TYPES)
  handle(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return behaviour({ body, message: context.getMessage() });
  }
}

/** The same handler without EventErrorFilter: Nest's default filter masks what it throws. */
@Controller()
class UnfilteredEventsController {
  @EventPattern(ALL_EVENT_TYPES)
  handle(@Payload() body: unknown, @Ctx() context: AmqpEventContext): Promise<void> {
    return behaviour({ body, message: context.getMessage() });
  }
}

@Controller()
@UseFilters(EventErrorFilter)
class PartialEventsController {
  @EventPattern(KEY)
  handle(): void {}
}

/** Stands for the database, Redis and job queues, which services close in beforeApplicationShutdown. */
const shutdownSteps: string[] = [];

@Injectable()
class DependenciesProbe implements BeforeApplicationShutdown {
  beforeApplicationShutdown(): void {
    shutdownSteps.push('dependencies closing');
  }
}

describe("AmqpEventTransport: @EventPattern handlers on a consumer's queue (real RabbitMQ, hybrid Nest app)", () => {
  let broker: TestBroker;
  let topology: ConsumerTopology;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('transport'));
    topology = broker.consumer(CONSUMER, ALL_EVENT_TYPES, RETRY);
    behaviour = async () => undefined;
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
  });

  /** A service wired like the notifier: HTTP app, the transport connected as a microservice. */
  async function createApp(controller: Type, url = TEST_AMQP_URL): Promise<INestApplication> {
    @Module({
      imports: [
        HealthModule,
        MessagingModule.forRoot({ url, connectionName: 'transport-test', namePrefix: broker.prefix, reconnect: { initialMs: 100, maxMs: 400 } }),
        EventTransportModule.forRoot({ consumer: CONSUMER, bindings: ALL_EVENT_TYPES, prefetch: 5, retry: RETRY }),
      ],
      controllers: [controller],
      providers: [DependenciesProbe],
    })
    class ConsumerModule {}

    const app = await createServiceApp(ConsumerModule, { logger: createLogger({ service: 'transport-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
    // Once only: a test may have closed it already.
    let closing: Promise<void> | undefined;
    const close = app.close.bind(app);
    app.close = () => (closing ??= close());
    cleanups.push(() => app.close());
    await app.init();
    app.connectMicroservice({ strategy: app.get(AmqpEventTransport) });
    return app;
  }

  async function startApp(controller: Type = EventsController, url?: string) {
    const app = await createApp(controller, url);
    await app.startAllMicroservices();
    const transport = app.get(AmqpEventTransport);
    await waitFor(() => transport.isConsuming(), { what: 'the subscription' });
    return { app, transport };
  }

  function recorder() {
    const handled: Handled[] = [];
    behaviour = async (event) => {
      handled.push(event);
    };
    return handled;
  }

  it('hands the JSON body and the delivery to the handler of the routing key, acks it, and reports event-consumer readiness', async () => {
    const handled = recorder();
    const { app } = await startApp();
    const readiness = app.get(ReadinessRegistry);
    expect((await readiness.report()).checks).toEqual({ amqp: 'up', 'event-consumer': 'up' });

    await broker.publish(KEY, '{"n":1}', { messageId: 'm-1' });
    await waitFor(() => handled.length === 1, { what: 'the message' });
    expect(handled[0]?.body).toEqual({ n: 1 });
    expect(handled[0]?.message).toMatchObject({ messageId: 'm-1', routingKey: KEY, deliveryCount: 1 });
    await waitFor(async () => (await broker.messageCount(topology.queue)) === 0, { what: 'the ack' });
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
    expect(await broker.isQuorumQueue(topology.queue)).toBe(true);
  });

  it('dead-letters a message with no handler for its key, a body that is not JSON and a DeadLetterError, and goes on', async () => {
    const handled = recorder();
    behaviour = async (event) => {
      if ((event.body as { poison?: boolean }).poison) throw new DeadLetterError('invalid payload');
      handled.push(event);
    };
    await startApp();
    await broker.sendToQueue(topology.queue, '{}', { messageId: 'no-handler' }); // routing key = queue name
    await broker.publish(KEY, 'not json', { messageId: 'not-json' });
    await broker.publish(KEY, '{"poison":true}', { messageId: 'refused' });
    await broker.publish(KEY, '{"ok":true}', { messageId: 'good' });

    await waitFor(() => handled.length === 1, { what: 'the good message' });
    expect(handled[0]?.message.messageId).toBe('good');
    const dead = await waitFor(
      async () => {
        const count = await broker.messageCount(topology.deadLetterQueue);
        return count !== null && count >= 3 ? broker.drain(topology.deadLetterQueue) : null;
      },
      { what: 'three dead-lettered messages' },
    );
    expect(dead.map((message) => message.properties.messageId).sort()).toEqual(['no-handler', 'not-json', 'refused']);
    expect(await broker.messageCount(topology.queue)).toBe(0);
  });

  it('retries a message whose handler failed for a transient reason through the retry queue, and handles it then', async () => {
    const handled = recorder();
    behaviour = failingFirst(2, () => new Error('database unavailable'), handled);
    await startApp();
    await broker.publish(KEY, '{}', { messageId: 'retry-me' });
    await waitFor(() => handled.length === 1, { what: 'the redelivered message' });
    expect(handled[0]?.message).toMatchObject({ messageId: 'retry-me', deliveryCount: 3 });
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
  });

  it('never acks nor dead-letters on a masked error: without EventErrorFilter a DeadLetterError is retried like any failure', async () => {
    const handled = recorder();
    behaviour = failingFirst(1, () => new DeadLetterError('looks permanent, but Nest hides it'), handled);
    await startApp(UnfilteredEventsController);
    await broker.publish(KEY, '{}', { messageId: 'masked' });
    await waitFor(() => handled.length === 1, { what: 'the redelivered message' });
    expect(handled[0]?.message).toMatchObject({ messageId: 'masked', deliveryCount: 2 });
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
  });

  it('refuses to start when a routing key bound to the queue has no handler', async () => {
    const app = await createApp(PartialEventsController);
    await expect(app.startAllMicroservices()).rejects.toThrow(/no @EventPattern handler for routing key\(s\) bound to .*identity\.invitation_created/);
    expect(app.get(AmqpEventTransport).isConsuming()).toBe(false);
  });

  it('re-subscribes after the connection drops', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    const handled = recorder();
    const { app, transport } = await startApp(EventsController, proxy.urlFor(TEST_AMQP_URL));
    const readiness = app.get(ReadinessRegistry);

    await proxy.cut();
    await waitFor(() => !transport.isConsuming(), { what: 'the drop' });
    expect((await readiness.report()).checks['event-consumer']).toBe('down');
    await delay(200);
    await proxy.resume();
    await waitFor(() => transport.isConsuming(), { what: 're-subscription after reconnect' });
    await broker.publish(KEY, '{}', { messageId: 'after-reconnect' });
    await waitFor(() => handled.some((event) => event.message.messageId === 'after-reconnect'), { what: 'a message after the reconnect' });
  });

  it('app.close() stops consuming and lets the handler in progress finish and be acked before dependencies and the connection close', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const handled = recorder();
    behaviour = async (event) => {
      started = true;
      await gate;
      handled.push(event);
      shutdownSteps.push('handler done');
    };
    const { app, transport } = await startApp();
    shutdownSteps.length = 0;
    await broker.publish(KEY, '{}', { messageId: 'slow' });
    await waitFor(() => started, { what: 'the handler to start' });

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await waitFor(() => !transport.isConsuming(), { what: 'the subscription to be cancelled' });
    await broker.publish(KEY, '{}', { messageId: 'after-stop' });
    await delay(200);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(handled.map((event) => event.message.messageId)).toEqual(['slow']);
    expect(shutdownSteps).toEqual(['handler done', 'dependencies closing']);
    expect(await broker.messageCount(topology.queue)).toBe(1); // 'after-stop' waits for the next consumer
    expect(await broker.messageCount(topology.deadLetterQueue)).toBe(0);
  });
});
