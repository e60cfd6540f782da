import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueBrokerPrefix } from '@school/messaging/testing';
import { migratedTestSchema, type MigratedTestSchema } from '@school/testing';
import { Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { EmailJob } from '../src/email/email-job.js';
import { JOB_QUEUES } from '../src/jobs/job-queues.js';
import { guestFeedback } from './support/events.js';
import { deleteRedisKeys, TEST_REDIS_URL } from './support/redis-cleanup.js';
import { startNotifier, type NotifierInstance } from './support/notifier-instance.js';
import { SmtpSink } from './support/smtp-sink.js';
import { waitFor } from './support/wait.js';

const serviceDir = join(import.meta.dirname, '..');
const SUPPORT_EMAIL = 'shop-inbox@example.com';
const LOCK_MS = 4_000;

describe('an email job no worker holds any more (EMAIL_JOB_LOCK_MS)', () => {
  let db: MigratedTestSchema;
  let sink: SmtpSink;
  let redis: Redis;
  let queue: Queue;
  let notifier: NotifierInstance | undefined;
  const prefix = uniqueBrokerPrefix('stalled');

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_stalled');
    sink = await SmtpSink.start();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(JOB_QUEUES.sendEmail, { connection: redis, prefix: `${prefix}bull` });
  });

  afterAll(async () => {
    await notifier?.close();
    await queue?.close();
    await redis?.quit();
    await deleteRedisKeys(prefix);
    await sink?.close();
    await db?.drop();
  });

  it('is sent by a running notifier once its lock ran out: a worker that died mid-job, or a move Redis made whose reply an outage lost', async () => {
    const mark = `stalled-${Date.now().toString(36)}`;
    const data: EmailJob = { template: 'feedback_submitted', to: SUPPORT_EMAIL, data: guestFeedback(mark) };
    await queue.add(data.template, data, { jobId: `${mark}_email`, attempts: 3 });
    // Another worker takes the job under a lock of LOCK_MS and is never heard of again.
    const gone = new Worker(JOB_QUEUES.sendEmail, null, { connection: redis, prefix: `${prefix}bull`, lockDuration: LOCK_MS, autorun: false });
    const taken = await gone.getNextJob('worker-that-died');
    expect(taken?.id).toBe(`${mark}_email`);

    notifier = await startNotifier(db.schema, {
      AMQP_NAME_PREFIX: prefix,
      REDIS_KEY_PREFIX: prefix,
      SMTP_URL: sink.url,
      SUPPORT_EMAIL,
      EMAIL_JOB_LOCK_MS: String(LOCK_MS),
    });

    // The stalled check runs every half lock: the job runs again within one and a half locks of being taken.
    const mails = await waitFor(() => (sink.matching(mark).length > 0 ? sink.matching(mark) : null), { what: 'the stalled job sent', timeoutMs: 3 * LOCK_MS });
    expect(new Set(mails.map((mail) => mail.messageId))).toEqual(new Set([`<${mark}_email@example.com>`]));
    const job = await waitFor(async () => {
      const found = await Job.fromId(queue, `${mark}_email`);
      return found?.finishedOn ? found : null;
    });
    expect(job.stalledCounter).toBe(1);
    expect(job.returnvalue).toBeNull();
    await gone.close(true);
  });
});
