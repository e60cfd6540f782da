import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SessionRevocations } from '@school/auth';
import { StreamSlots } from '../src/streams/stream-slots.js';
import { bearer, json, REDIS_URL, startTestGateway, type TestGateway } from './support/gateway.js';

const STREAM = '/api/notifications/stream';
const unique = () => randomBytes(4).toString('hex');

interface OpenStream {
  response: Response;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  abort(): void;
}

/** A fake notifier stream: headers and a first event at once, then silence until the client leaves. */
function serveStreams(gateway: TestGateway): { upstreamOpen: () => number; broadcast: (data: string) => void } {
  const open = new Set<(data: string) => void>();
  gateway.fakes.notifier.behaviours.set(STREAM, async (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    reply.raw.write('event: ready\ndata: {}\n\n');
    const send = (data: string) => reply.raw.write(`event: feedback.submitted\ndata: ${data}\n\n`);
    open.add(send);
    request.raw.socket.once('close', () => open.delete(send));
  });
  return { upstreamOpen: () => open.size, broadcast: (data) => open.forEach((send) => send(data)) };
}

async function openStream(gateway: TestGateway, authorization: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(gateway.url + STREAM, { headers: { authorization }, signal: controller.signal });
  const reader = response.body!.getReader();
  if (response.status === 200) await reader.read(); // the first event: the upstream stream is open
  return { response, reader, abort: () => controller.abort() };
}

/** Reads until the stream ends (done or cut); resolves with what arrived. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
  } catch {
    // cut by the gateway: the end we wait for
  }
  return text;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Contract §9, live notifications. */
describe('live notification streams through the gateway', () => {
  let gateway: TestGateway;
  let replica: TestGateway;
  let upstream: ReturnType<typeof serveStreams>;
  const opened: OpenStream[] = [];
  const open = async (target: TestGateway, authorization: string) => {
    const stream = await openStream(target, authorization);
    opened.push(stream);
    return stream;
  };

  beforeAll(async () => {
    gateway = await startTestGateway();
    replica = await startTestGateway({ fakes: gateway.fakes, issuer: gateway.issuer, deps: { throttleKeyPrefix: gateway.keyPrefix } });
    upstream = serveStreams(gateway);
  });
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.abort();
  });
  afterAll(async () => {
    await replica.close();
    await gateway.close();
  });

  it('holds at most 3 open streams per user across replicas (the next is 429) and frees a slot when a stream closes', async () => {
    const user = `staff-${unique()}`;
    const token = () => bearer(gateway.issuer, { sub: user, role: 'admin' });
    const streams = [await open(gateway, await token()), await open(replica, await token()), await open(gateway, await token())];
    expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200]);

    for (const target of [gateway, replica]) {
      const refused = await fetch(target.url + STREAM, { headers: { authorization: await token() } });
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ message: 'Too many requests, please try again later', data: null, errorCode: 'RATE_LIMITED' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await open(gateway, await bearer(gateway.issuer, { sub: `other-${unique()}`, role: 'admin' }))).response.status).toBe(200);

    streams[1]!.abort();
    let reopened: OpenStream | undefined;
    // The slot is released once the gateway sees the close: retry until it has.
    await until(async () => {
      const attempt = await open(replica, await token());
      if (attempt.response.status === 200) reopened = attempt;
      return reopened !== undefined;
    });
    expect(reopened!.response.status).toBe(200);
  });

  it('keeps streams off the pool of other routes: 130 open streams leave the next stream and other routes answering', async () => {
    const users = Array.from({ length: 44 }, () => `staff-${unique()}`);
    const tokens = await Promise.all(users.flatMap((sub) => [0, 1, 2].map(() => bearer(gateway.issuer, { sub, role: 'admin' }))));
    const streams = await Promise.all(tokens.slice(0, 130).map((authorization) => open(gateway, authorization)));
    expect(streams.every((stream) => stream.response.status === 200)).toBe(true);
    await until(() => upstream.upstreamOpen() >= 130);

    const next = await open(gateway, tokens[130]!);
    expect(next.response.status).toBe(200);
    const other = await fetch(`${gateway.url}/api/academic-sessions`, { headers: { authorization: tokens[131]! } });
    expect(other.status).toBe(200);
  }, 60_000);

  it("ends a stream as soon as its session is revoked, on every replica, and leaves the session's others alone", async () => {
    const identityRedis = new Redis(REDIS_URL);
    try {
      const sessionId = `session-${unique()}`;
      const user = `staff-${unique()}`;
      const revoked = await bearer(gateway.issuer, { sub: user, sid: sessionId, role: 'admin' });
      const kept = await bearer(gateway.issuer, { sub: user, role: 'admin' });
      const [onGateway, onReplica, survivor] = [await open(gateway, revoked), await open(replica, revoked), await open(gateway, kept)];

      // What identity does on logout, ban or password reset.
      await new SessionRevocations(identityRedis).revoke(sessionId, 60);

      // The fake notifier never ends a stream: only the gateway's cut ends these reads.
      await Promise.all([readToEnd(onGateway.reader), readToEnd(onReplica.reader)]);
      upstream.broadcast('{"id":"after"}');
      const decoder = new TextDecoder();
      let received = '';
      while (!received.includes('"after"')) received += decoder.decode((await survivor.reader.read()).value);
      expect(received).toContain('"after"');
    } finally {
      identityRedis.disconnect();
    }
  });
});

describe('stream slots in Redis', () => {
  it('frees the slots of a replica that stopped renewing them once their lease ends', async () => {
    const redis = new Redis(REDIS_URL);
    const keyPrefix = `test:streams:${unique()}:`;
    try {
      const slots = new StreamSlots(redis, { keyPrefix, limit: 3, leaseMs: 300, timeoutMs: 5_000 });
      const held = [await slots.take('u'), await slots.take('u'), await slots.take('u')];
      expect(held.every(Boolean)).toBe(true);
      expect(await slots.take('u')).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await slots.take('u')).toBeDefined();
    } finally {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
