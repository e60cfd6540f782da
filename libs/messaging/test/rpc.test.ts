import {
  AmqpConnection,
  DIRECT_REPLY_TO,
  RPC_HEADERS,
  RpcClient,
  RpcContractError,
  RpcServer,
  RpcUnavailableError,
  silentLogger,
  type MessagingLogger,
  type RpcRoute,
} from '@school/messaging';
import { GEOGRAPHY_CHECK, defineRpc } from '@school/contracts';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { z } from 'zod';
import { delay, waitFor } from './support/wait.js';

const DOUBLE = defineRpc({
  name: 'rpc-test.double',
  request: z.object({ n: z.number().int() }).strict(),
  answer: z.object({ doubled: z.number().int() }).strict(),
});
/** The same contract as another deployed version of the caller might have it. */
const DOUBLE_LOOSE_REQUEST = defineRpc({ name: DOUBLE.name, request: z.object({ n: z.unknown() }), answer: DOUBLE.answer });
const DOUBLE_STRICT_ANSWER = defineRpc({ name: DOUBLE.name, request: DOUBLE.request, answer: z.object({ doubled: z.number().int().max(10) }).strict() });

const FAST_RECONNECT = { initialMs: 100, maxMs: 400 };
/** The deadline of calls that must be answered: one no loaded machine's round trip reaches. */
const ANSWER_DEADLINE_MS = scaled(5_000);

/** A logger that keeps every line, to assert what was logged. */
function recordingLogger(): MessagingLogger & { lines: string[] } {
  const lines: string[] = [];
  const record = (_fields: object, message?: string) => {
    lines.push(message ?? '');
  };
  return { lines, debug: record, info: record, warn: record, error: record };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('RPC over RabbitMQ: direct reply-to, deadlines, typed contracts (real RabbitMQ)', () => {
  let broker: TestBroker;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('rpc'));
    broker.rpcQueue(DOUBLE);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
  });

  function connect(url = TEST_AMQP_URL): AmqpConnection {
    const connection = new AmqpConnection({ url, name: 'rpc-test', logger: silentLogger, reconnect: FAST_RECONNECT });
    cleanups.push(() => connection.close());
    return connection;
  }

  async function startServer(routes: RpcRoute[], { prefetch = 20, logger = silentLogger, url = TEST_AMQP_URL } = {}) {
    const server = new RpcServer(connect(url), { prefix: broker.prefix, routes, prefetch, logger });
    server.start();
    cleanups.push(() => server.stop());
    await waitFor(() => server.isConsuming(), { what: 'the RPC server subscription' });
    return server;
  }

  async function startClient({ url = TEST_AMQP_URL, logger = silentLogger, defaultTimeoutMs = ANSWER_DEADLINE_MS } = {}) {
    const client = new RpcClient(connect(url), { prefix: broker.prefix, logger, defaultTimeoutMs });
    cleanups.push(() => client.close());
    await waitFor(() => client.isReady(), { what: 'the RPC reply consumer' });
    return client;
  }

  const doubling: RpcRoute = { contract: DOUBLE, handler: (request) => ({ doubled: (request as { n: number }).n * 2 }) };

  it("answers a call with the handler's answer, both sides validating with the contract's schemas", async () => {
    const seen: unknown[] = [];
    await startServer([{ contract: DOUBLE, handler: (request) => (seen.push(request), { doubled: (request as { n: number }).n * 2 }) }]);
    const client = await startClient();

    await expect(client.call(DOUBLE, { n: 21 })).resolves.toEqual({ doubled: 42 });
    expect(seen).toEqual([{ n: 21 }]);

    // The caller refuses to send a request that does not match; nothing reaches the server.
    const invalid = await rejection(client.call(DOUBLE, { n: 'x' } as never));
    expect(invalid).toBeInstanceOf(RpcContractError);
    expect(invalid).toMatchObject({ side: 'request', contract: DOUBLE.name });
    // The server refuses one that does not match its version of the contract, with a typed answer, and goes on.
    const refused = await rejection(client.call(DOUBLE_LOOSE_REQUEST, { n: 'x' }));
    expect(refused).toBeInstanceOf(RpcContractError);
    expect((refused as RpcContractError).side).toBe('request');
    expect((refused as Error).message).toMatch(/n: /);
    // The caller refuses an answer that does not match its version of the contract.
    const badAnswer = await rejection(client.call(DOUBLE_STRICT_ANSWER, { n: 21 }));
    expect(badAnswer).toBeInstanceOf(RpcContractError);
    expect((badAnswer as RpcContractError).side).toBe('answer');
    expect(seen).toEqual([{ n: 21 }, { n: 21 }]);
    await expect(client.call(DOUBLE, { n: 2 })).resolves.toEqual({ doubled: 4 });
    expect(client.inFlight).toBe(0);
  });

  it('answers a failing handler, or one returning what the contract refuses, as a typed error (503), and keeps serving', async () => {
    const logger = recordingLogger();
    await startServer(
      [
        {
          contract: DOUBLE,
          handler: async (request) => {
            const { n } = request as { n: number };
            if (n === 1) throw new Error('database unavailable');
            if (n === 2) return { doubled: 'four' };
            return { doubled: n * 2 };
          },
        },
      ],
      { logger },
    );
    const client = await startClient();

    const failed = await rejection(client.call(DOUBLE, { n: 1 }));
    expect(failed).toBeInstanceOf(RpcUnavailableError);
    expect(failed).toMatchObject({ reason: 'server_failed', code: 'RPC_UNAVAILABLE' });
    const invalid = await rejection(client.call(DOUBLE, { n: 2 }));
    expect(invalid).toMatchObject({ name: 'RpcUnavailableError', reason: 'server_failed' });
    await expect(client.call(DOUBLE, { n: 3 })).resolves.toEqual({ doubled: 6 });
    expect(logger.lines).toEqual(expect.arrayContaining([expect.stringMatching(/handler failed/), expect.stringMatching(/does not match the contract/)]));
  });

  it("the product's contracts round-trip with their own schemas (geography check with a reason)", async () => {
    await startServer([
      {
        contract: GEOGRAPHY_CHECK,
        handler: (request) => {
          const { districtId } = request as { districtId: number };
          return districtId === 9 ? { valid: false, reason: 'district_not_in_province' } : { valid: true, claimId: '0190b6a4-0000-7000-8000-000000000001' };
        },
      },
    ]);
    const client = await startClient();
    await expect(client.call(GEOGRAPHY_CHECK, { provinceId: 1, districtId: 2, municipalityId: 3 })).resolves.toEqual({
      valid: true,
      claimId: '0190b6a4-0000-7000-8000-000000000001',
    });
    await expect(client.call(GEOGRAPHY_CHECK, { provinceId: 1, districtId: 9, municipalityId: 3 })).resolves.toEqual({ valid: false, reason: 'district_not_in_province' });
    await expect(client.call(GEOGRAPHY_CHECK, { provinceId: 1.5, districtId: 2, municipalityId: 3 })).rejects.toBeInstanceOf(RpcContractError);
  });

  it('a call nobody answers in time fails with RpcUnavailableError at its deadline, and the late answer is ignored', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handled = 0;
    await startServer([{ contract: DOUBLE, handler: async (request) => (await gate, handled++, { doubled: (request as { n: number }).n * 2 }) }]);
    const logger = recordingLogger();
    const client = await startClient({ logger });

    const started = Date.now();
    const late = await rejection(client.call(DOUBLE, { n: 5 }, { timeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect(late).toBeInstanceOf(RpcUnavailableError);
    expect(late).toMatchObject({ reason: 'deadline' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(ANSWER_DEADLINE_MS); // its own deadline, not the client's default

    release();
    await waitFor(() => handled === 1, { what: 'the handler to finish' });
    await waitFor(() => logger.lines.some((line) => /late or duplicate/.test(line)), { what: 'the late answer to be ignored' });
    expect(client.inFlight).toBe(0);
    await expect(client.call(DOUBLE, { n: 6 })).resolves.toEqual({ doubled: 12 });
  });

  it("sends the deadline as the request's expiration, so the broker drops a request nobody took in time", async () => {
    const server = await startServer([doubling]);
    const queue = broker.rpcQueue(DOUBLE);
    await server.stop(); // the queue stays, nobody consumes it
    const client = await startClient();

    // Long enough that the request is still queued when the test looks, however loaded the machine.
    const expiresMs = scaled(2_000);
    const pending = rejection(client.call(DOUBLE, { n: 1 }, { timeoutMs: expiresMs }));
    const [message] = await waitFor(
      async () => {
        const messages = await broker.drain(queue, 1);
        return messages.length ? messages : null;
      },
      { what: 'the request in the queue' },
    );
    expect(message?.properties).toMatchObject({ expiration: String(expiresMs), contentType: 'application/json', type: DOUBLE.name });
    expect(message?.properties.replyTo).toMatch(new RegExp(`^${DIRECT_REPLY_TO.replaceAll('.', '\\.')}\\.`));
    expect(message?.properties.correlationId).toEqual(expect.any(String));
    expect(Number(message?.properties.headers?.[RPC_HEADERS.deadline])).toBeGreaterThan(Date.now());
    expect(message?.properties.deliveryMode).not.toBe(2);
    expect(await pending).toMatchObject({ reason: 'deadline' });

    // Left in the queue, it is gone once its expiration has passed.
    const dropped = rejection(client.call(DOUBLE, { n: 2 }, { timeoutMs: expiresMs }));
    await waitFor(async () => (await broker.messageCount(queue)) === 1, { what: 'the second request queued' });
    expect(await dropped).toMatchObject({ reason: 'deadline' });
    await waitFor(async () => (await broker.messageCount(queue)) === 0, { what: 'the broker to expire the request' });
  });

  it('with the server down fails typed: at once when its queue was never declared, at the deadline when nobody consumes it', async () => {
    const client = await startClient();
    const started = Date.now();
    const never = await rejection(client.call(DOUBLE, { n: 1 }, { timeoutMs: 5_000 }));
    expect(never).toBeInstanceOf(RpcUnavailableError);
    expect(never).toMatchObject({ reason: 'no_server' });
    expect(Date.now() - started).toBeLessThan(5_000); // not at its deadline

    const server = await startServer([doubling]);
    await server.stop();
    const stopped = await rejection(client.call(DOUBLE, { n: 1 }, { timeoutMs: 300 }));
    expect(stopped).toMatchObject({ name: 'RpcUnavailableError', reason: 'deadline' });
  });

  it('a server drops requests past their deadline or without a reply address, unanswered and acked', async () => {
    const server = await startServer([doubling]);
    await server.stop();
    const queue = broker.rpcQueue(DOUBLE);
    const replies = await broker.tap('unused'); // an exclusive queue of ours, to see what is answered
    const request = Buffer.from('{"n":1}');
    await broker.sendToQueue(queue, request, { persistent: false, replyTo: replies, correlationId: 'expired', headers: { [RPC_HEADERS.deadline]: Date.now() - 1_000 } });
    await broker.sendToQueue(queue, request, { persistent: false, correlationId: 'no-reply-to' });
    await broker.sendToQueue(queue, request, { persistent: false, replyTo: replies, correlationId: 'in-time', headers: { [RPC_HEADERS.deadline]: Date.now() + 10_000 } });

    const logger = recordingLogger();
    await startServer([doubling], { logger });
    const [answer, ...more] = await waitFor(
      async () => {
        const messages = await broker.drain(replies);
        return messages.length ? messages : null;
      },
      { what: 'the answer to the request in time' },
    );
    expect(more).toEqual([]);
    expect(answer?.properties.correlationId).toBe('in-time');
    expect(JSON.parse(answer?.content.toString() ?? '')).toEqual({ ok: true, answer: { doubled: 2 } });
    await waitFor(async () => (await broker.messageCount(queue)) === 0, { what: 'every request acked' });
    expect(logger.lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/past its deadline; dropped/), expect.stringMatching(/without replyTo or correlation id; dropped/)]),
    );
    await delay(100);
    expect(await broker.messageCount(replies)).toBe(0);
  });

  it('a broker connection cut mid-call fails the call at once, calls while disconnected fail at once, and calls work again after the reconnect', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    let handling = 0;
    await startServer([{ contract: DOUBLE, handler: async (request) => (handling++, await delay(1_000), { doubled: (request as { n: number }).n * 2 }) }]);
    const client = await startClient({ url: proxy.urlFor(TEST_AMQP_URL) });

    const inFlight = Array.from({ length: 3 }, (_, n) => rejection(client.call(DOUBLE, { n }, { timeoutMs: 10_000 })));
    await waitFor(() => handling === 3, { what: 'the server to take the calls' });
    const cut = Date.now();
    await proxy.cut();
    for (const error of await Promise.all(inFlight)) {
      expect(error).toBeInstanceOf(RpcUnavailableError);
      expect(error).toMatchObject({ reason: 'connection_lost' });
    }
    expect(Date.now() - cut).toBeLessThan(10_000); // before their deadline
    expect(client.inFlight).toBe(0);

    await waitFor(() => !client.isReady(), { what: 'the client to notice' });
    const started = Date.now();
    expect(await rejection(client.call(DOUBLE, { n: 1 }, { timeoutMs: 10_000 }))).toMatchObject({ reason: 'not_connected' });
    expect(Date.now() - started).toBeLessThan(10_000); // not at its deadline

    await proxy.resume();
    await waitFor(() => client.isReady(), { what: 'the reply consumer after the reconnect' });
    await expect(client.call(DOUBLE, { n: 7 })).resolves.toEqual({ doubled: 14 });
  });

  it('a server whose connection dropped declares and consumes its queue again after the reconnect', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    cleanups.push(() => proxy.close());
    const server = await startServer([doubling], { url: proxy.urlFor(TEST_AMQP_URL) });
    const client = await startClient();
    await proxy.cut();
    await waitFor(() => !server.isConsuming(), { what: 'the server to notice' });
    await broker.deleteQueue(broker.rpcQueue(DOUBLE)); // the broker lost its state meanwhile
    expect(await rejection(client.call(DOUBLE, { n: 1 }))).toMatchObject({ reason: 'no_server' });
    await proxy.resume();
    await waitFor(() => server.isConsuming(), { what: 'the server to re-subscribe' });
    await expect(client.call(DOUBLE, { n: 8 })).resolves.toEqual({ doubled: 16 });
  });

  it('correlates 200 concurrent calls, each with its own answer', async () => {
    await startServer([{ contract: DOUBLE, handler: async (request) => (await delay(Math.random() * 20), { doubled: (request as { n: number }).n * 2 }) }], { prefetch: 50 });
    const client = await startClient({ defaultTimeoutMs: 10_000 });
    const numbers = Array.from({ length: 200 }, (_, index) => index - 100);
    const answers = await Promise.all(numbers.map((n) => client.call(DOUBLE, { n })));
    expect(answers).toEqual(numbers.map((n) => ({ doubled: n * 2 })));
    expect(client.inFlight).toBe(0);
  });

  it('refuses a deadline out of range and a contract name that is not <service>.<question>', async () => {
    const client = await startClient();
    await expect(client.call(DOUBLE, { n: 1 }, { timeoutMs: 0 })).rejects.toThrow(/deadline/);
    expect(() => defineRpc({ name: 'NoDots', request: z.object({}), answer: z.object({}) })).toThrow(/must match/);
  });
});
