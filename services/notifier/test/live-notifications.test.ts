import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { REVOKED_SESSIONS_KEY, SessionRevocations } from '@school/auth';
import { EVENT_TYPES, SERVICE_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createTestIssuer, migratedTestSchema, scaled, type MigratedTestSchema, type TestIssuer } from '@school/testing';
import { guestFeedback } from './support/events.js';
import { deleteRedisKeys, TEST_REDIS_URL } from './support/redis-cleanup.js';
import { startNotifier, type NotifierInstance } from './support/notifier-instance.js';
import { SseClient } from './support/sse-client.js';
import { TestProducer } from './support/test-producer.js';
import { delay, waitFor } from './support/wait.js';

const serviceDir = join(import.meta.dirname, '..');
const STREAM = '/api/notifications/stream';

describe('live admin notifications (SSE, Redis fan-out across replicas)', () => {
  let db: MigratedTestSchema;
  let issuer: TestIssuer;
  let broker: TestBroker;
  let producer: TestProducer;
  const replicas: NotifierInstance[] = [];
  const clients: SseClient[] = [];
  const prefix = uniqueBrokerPrefix('live');
  let variables: Record<string, string>;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_live');
    issuer = await createTestIssuer();
    broker = await TestBroker.connect(prefix);
    variables = {
      AMQP_URL: TEST_AMQP_URL,
      AMQP_NAME_PREFIX: prefix,
      REDIS_KEY_PREFIX: prefix,
      JWKS_URL: issuer.jwksUrl,
      JWT_ISSUER: issuer.issuer,
      JWT_AUDIENCE: issuer.audience,
      SSE_HEARTBEAT_SECONDS: '1',
      MAIL_OUTBOX_DIR: join(db.schema, 'mail'), // never used: SMTP_URL is set below
      SMTP_URL: 'smtp://127.0.0.1:9', // nothing listens: emails just retry, irrelevant here
    };
    replicas.push(await startNotifier(db.schema, variables), await startNotifier(db.schema, variables));
    producer = await TestProducer.start({ amqpUrl: TEST_AMQP_URL, namePrefix: prefix });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await producer?.close();
    for (const replica of replicas) await replica.close();
    await broker?.destroy();
    await deleteRedisKeys(prefix);
    await issuer?.close();
    await db?.drop();
  });

  async function connect(replica: NotifierInstance, role: 'admin' | 'staff' | 'customer' = 'staff', options: { sid?: string; expiresIn?: number } = {}) {
    const token = await issuer.sign({ sub: `user-${role}`, sid: options.sid ?? `session-${Math.random()}`, role }, { expiresIn: options.expiresIn ?? 900 });
    const client = await SseClient.open(`${replica.url}${STREAM}`, token);
    clients.push(client);
    return client;
  }

  it('serves every route of its manifest with exactly one handler, guarded as its entry says, and no handler outside it', () => {
    expect(manifestMismatches((replicas[0] as NotifierInstance).app, SERVICE_ROUTES.notifier)).toEqual([]);
  });

  it('sends one feedback.submitted to each client, whichever replica consumed the event', async () => {
    const [a, b] = replicas as [NotifierInstance, NotifierInstance];
    const onA = await connect(a, 'staff');
    const onB = await connect(b, 'admin');
    for (const client of [onA, onB]) {
      expect(client.status).toBe(200);
      expect(client.header('content-type')).toMatch(/^text\/event-stream/);
      expect(client.header('cache-control')).toContain('no-cache');
      expect(client.header('x-accel-buffering')).toBe('no');
    }
    await waitFor(() => onA.comments.includes('connected') && onB.comments.includes('connected'), { what: 'both streams open' });

    const feedback = guestFeedback('live', { subject: 'Live subject' });
    const messageId = await producer.record(EVENT_TYPES.feedbackSubmitted, feedback);

    await waitFor(() => onA.events.length >= 1 && onB.events.length >= 1, { what: 'the event on both streams' });
    await delay(500);
    for (const client of [onA, onB]) {
      expect(client.events).toHaveLength(1);
      expect(client.events[0]).toMatchObject({ event: 'feedback.submitted', id: messageId });
      expect(JSON.parse(client.events[0]?.data ?? '')).toEqual({
        id: feedback.id,
        category: 'bug_report',
        subject: 'Live subject',
        createdAt: feedback.createdAt,
      });
    }
  });

  it('keeps the stream open with a heartbeat comment', async () => {
    const client = await connect(replicas[0] as NotifierInstance);
    await waitFor(() => client.comments.includes('heartbeat'), { what: 'a heartbeat', timeoutMs: 3_000 });
  });

  it('refuses a caller without Feedback_READ (403) and one without a token (401), with the error envelope', async () => {
    const customer = await connect(replicas[0] as NotifierInstance, 'customer');
    expect(customer.status).toBe(403);
    expect(customer.json()).toEqual(expect.objectContaining({ data: null, errorCode: 'PERMISSION_INSUFFICIENT' }));

    const anonymous = await SseClient.open(`${(replicas[0] as NotifierInstance).url}${STREAM}`);
    clients.push(anonymous);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json()).toEqual(expect.objectContaining({ data: null, errorCode: 'AUTH_UNAUTHENTICATED' }));
  });

  it('ends a stream when the access token it was opened with expires', async () => {
    const client = await connect(replicas[0] as NotifierInstance, 'staff', { expiresIn: 2 });
    await waitFor(() => client.comments.includes('connected'), { what: 'stream open' });
    await client.closed();
    expect(client.comments).toContain('connected');
  });

  it('ends a stream at the first heartbeat after its session is revoked, and only that one', async () => {
    const sid = `session-revoked-${Math.random()}`;
    const revoked = await connect(replicas[1] as NotifierInstance, 'admin', { sid });
    const other = await connect(replicas[1] as NotifierInstance, 'admin');
    await waitFor(() => revoked.comments.includes('connected') && other.comments.includes('connected'), { what: 'streams open' });
    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
    try {
      await new SessionRevocations(redis).revoke(sid, 60);
      await revoked.closed();
      const heartbeats = other.comments.filter((comment) => comment === 'heartbeat').length;
      await waitFor(() => other.comments.filter((comment) => comment === 'heartbeat').length > heartbeats, { what: 'the other stream still beating', timeoutMs: 3_000 });
    } finally {
      await redis.zrem(REVOKED_SESSIONS_KEY, sid);
      redis.disconnect();
    }
  });

  it('ends open streams at shutdown so the replica stops promptly', async () => {
    const extra = await startNotifier(db.schema, variables);
    const client = await connect(extra);
    await waitFor(() => client.comments.includes('connected'), { what: 'stream open' });
    const started = Date.now();
    await extra.close();
    await client.closed();
    expect(Date.now() - started).toBeLessThan(scaled(5_000));
  });
});
