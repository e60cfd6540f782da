import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ConsumerTopology } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { JOB_QUEUES } from '../src/jobs/job-queues.js';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { migratedTestSchema, quoteIdent, withConnection, type MigratedTestSchema } from '@school/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { EmailQueue } from '../src/email/email.queue.js';
import { InboundEventsService } from '../src/inbound/inbound-events.service.js';
import { guestFeedback } from './support/events.js';
import { deleteRedisKeys, TEST_REDIS_URL } from './support/redis-cleanup.js';
import { startNotifier, type NotifierInstance } from './support/notifier-instance.js';
import { delay, waitFor } from './support/wait.js';
import { INBOUND_EVENTS } from '../src/inbound/inbound-topology.js';

const serviceDir = join(import.meta.dirname, '..');

describe('notifier shutdown with an event in progress (AMQP event transport)', () => {
  let db: MigratedTestSchema;
  let broker: TestBroker;
  let queues: ConsumerTopology;
  let notifier: NotifierInstance;
  let redis: Redis;
  let emailQueue: Queue;
  const prefix = uniqueBrokerPrefix('shutdown');

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_shutdown');
    broker = await TestBroker.connect(prefix);
    queues = broker.consumer(INBOUND_EVENTS.consumer, INBOUND_EVENTS.bindings);
    notifier = await startNotifier(db.schema, {
      AMQP_URL: TEST_AMQP_URL,
      AMQP_NAME_PREFIX: prefix,
      REDIS_KEY_PREFIX: prefix,
      SMTP_URL: 'smtp://127.0.0.1:9', // nothing listens: the job just waits, irrelevant here
    });
    redis = new Redis(TEST_REDIS_URL);
    emailQueue = new Queue(JOB_QUEUES.sendEmail, { connection: redis, prefix: `${prefix}bull` });
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`)).status === 200, { what: 'notifier ready' });
  });

  afterAll(async () => {
    await notifier?.close();
    await emailQueue?.close();
    await redis?.quit();
    await deleteRedisKeys(prefix);
    await broker?.destroy();
    await db?.drop();
  });

  it('stops taking messages, commits and acks the one in progress, and only then closes its dependencies', async () => {
    const email = notifier.app.get(EmailQueue);
    const enqueue = email.enqueue.bind(email);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inProgress = false;
    email.enqueue = async (jobId, job) => {
      inProgress = true;
      await gate; // inside the inbox transaction, before the job queue is used
      return enqueue(jobId, job);
    };
    const steps: string[] = [];
    const inbound = notifier.app.get(InboundEventsService);
    const handle = inbound.handle.bind(inbound);
    inbound.handle = async (...args) => {
      await handle(...args);
      steps.push('event committed');
    };
    const closeQueue = email.beforeApplicationShutdown.bind(email);
    email.beforeApplicationShutdown = async () => {
      steps.push('job queue closing');
      await closeQueue();
    };
    const messageId = `slow-${prefix}`;
    await broker.publish(EVENT_TYPES.feedbackSubmitted, JSON.stringify(guestFeedback('shutdown')), { messageId });
    await waitFor(() => inProgress, { what: 'the handler to reach the enqueue' });

    let closed = false;
    const closing = notifier.close().then(() => {
      closed = true;
    });
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`).catch(() => null))?.status !== 200, { what: 'unready while draining' });
    const afterStop = `after-stop-${prefix}`;
    await broker.publish(EVENT_TYPES.feedbackSubmitted, JSON.stringify(guestFeedback('after-stop')), { messageId: afterStop });
    await delay(300);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(steps).toEqual(['event committed', 'job queue closing']);

    const inbox = await withConnection(db.databaseUrl, (client) => client.query<{ message_id: string }>(`SELECT message_id FROM ${quoteIdent(db.schema)}.processed_messages`));
    expect(inbox.rows.map((row) => row.message_id)).toEqual([messageId]);
    expect(await emailQueue.getJob(`${messageId}_email`)).toBeDefined();
    // Acked: nothing came back to the queue but the message published after consuming stopped.
    expect(await broker.messageCount(queues.queue)).toBe(1);
    expect(await broker.messageCount(queues.deadLetterQueue)).toBe(0);
  });
});
