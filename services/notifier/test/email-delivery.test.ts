import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ConsumerTopology } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { emailDigest } from '@school/http';
import { JOB_QUEUES } from '../src/jobs/job-queues.js';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { migratedTestSchema, scrapeMetrics, type MigratedTestSchema } from '@school/testing';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { LiveNotificationHub } from '../src/live/live-notification.hub.js';
import { guestFeedback } from './support/events.js';
import { deleteRedisKeys, TEST_REDIS_URL } from './support/redis-cleanup.js';
import { startNotifier, type NotifierInstance } from './support/notifier-instance.js';
import { SmtpSink } from './support/smtp-sink.js';
import { TestProducer } from './support/test-producer.js';
import { delay, waitFor } from './support/wait.js';
import { INBOUND_EVENTS } from '../src/inbound/inbound-topology.js';

const serviceDir = join(import.meta.dirname, '..');
const SUPPORT_EMAIL = 'shop-inbox@example.com';

describe('events to email: outbox -> RabbitMQ -> notifier -> BullMQ -> SMTP', () => {
  let db: MigratedTestSchema;
  let sink: SmtpSink;
  let proxy: TcpProxy;
  let broker: TestBroker;
  let inbound: ConsumerTopology;
  let producer: TestProducer;
  let notifier: NotifierInstance;
  let redis: Redis;
  let emailQueue: Queue;
  let smsQueue: Queue;
  const prefix = uniqueBrokerPrefix('notifier');
  const redisPrefix = `${prefix}`;
  let counter = 0;
  const marker = () => `mark-${Date.now().toString(36)}-${(counter += 1)}`;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_email');
    sink = await SmtpSink.start();
    proxy = await TcpProxy.start(TEST_AMQP_URL);
    broker = await TestBroker.connect(prefix);
    inbound = broker.consumer(INBOUND_EVENTS.consumer, INBOUND_EVENTS.bindings);
    const amqpUrl = proxy.urlFor(TEST_AMQP_URL);
    notifier = await startNotifier(db.schema, {
      AMQP_URL: amqpUrl,
      AMQP_NAME_PREFIX: prefix,
      REDIS_KEY_PREFIX: redisPrefix,
      SMTP_URL: sink.url,
      SUPPORT_EMAIL,
      EMAIL_ATTEMPTS: '6',
      EMAIL_BACKOFF_MS: '100',
    });
    producer = await TestProducer.start({ amqpUrl, namePrefix: prefix });
    redis = new Redis(TEST_REDIS_URL);
    emailQueue = new Queue(JOB_QUEUES.sendEmail, { connection: redis, prefix: `${redisPrefix}bull` });
    smsQueue = new Queue(JOB_QUEUES.sendSms, { connection: redis, prefix: `${redisPrefix}bull` });
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`)).status === 200, { what: 'notifier ready' });
  });

  afterAll(async () => {
    await producer?.close();
    await notifier?.close();
    await emailQueue?.close();
    await smsQueue?.close();
    await redis?.quit();
    await deleteRedisKeys(redisPrefix);
    await broker?.destroy();
    await proxy?.close();
    await sink?.close();
    await db?.drop();
  });

  it('reports amqp, redis, the consumer and the workers in /health/ready', async () => {
    const response = await fetch(`${notifier.url}/health/ready`);
    const body = (await response.json()) as { data: { checks: Record<string, string> } };
    expect(body.data.checks).toEqual({
      database: 'up',
      amqp: 'up',
      redis: 'up',
      'redis-subscriber': 'up',
      'event-consumer': 'up',
      'email-worker': 'up',
      'sms-worker': 'up',
    });
  });

  it('turns an event recorded in a producer transaction into exactly one email, to SUPPORT_EMAIL only', async () => {
    const mark = marker();
    const id = await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(mark));

    const [mail] = await waitFor(() => (sink.matching(mark).length ? sink.matching(mark) : null), { what: 'the feedback email' });
    await delay(500);
    expect(sink.matching(mark)).toHaveLength(1);
    expect(mail?.to).toEqual([SUPPORT_EMAIL]);
    expect(mail?.subject).toContain(`[Feedback] Bug report: Checkout fails ${mark}`);
    expect(mail?.messageId).toBe(`<${id}_email@example.com>`);
    expect(mail?.text).toContain('guest@example.org'); // in the body, not as a recipient
    expect(mail?.text).toContain('The pay button does nothing. <script>alert(1)</script>');
    expect(mail?.html).toContain('The pay button does nothing. &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail?.html).not.toContain('<script>');
  });

  it('delivers 100 events exactly once although the test cuts the RabbitMQ connections while they are recorded', async () => {
    const mark = marker();
    const ids: string[] = [];
    const record = async (n: number) => ids.push(await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(`${mark}-${n}-end`)));
    for (let n = 0; n < 30; n += 1) await record(n);
    await proxy.cut(); // drops the relay's and the notifier's connections mid-flow
    for (let n = 30; n < 100; n += 1) await record(n); // business writes go on while the broker is away
    await delay(300);
    await proxy.resume();

    await waitFor(() => sink.matching(mark).length >= 100, { what: '100 emails', timeoutMs: 30_000 });
    await delay(1_000);
    const mails = sink.matching(mark);
    expect(mails).toHaveLength(100);
    expect(new Set(mails.map((mail) => mail.messageId))).toEqual(new Set(ids.map((id) => `<${id}_email@example.com>`)));
  }, 60_000);

  it('sends one email when the same message is published twice', async () => {
    const mark = marker();
    const body = JSON.stringify(guestFeedback(mark));
    const messageId = `dup-${mark}`;
    await broker.publish(EVENT_TYPES.feedbackSubmitted, body, { messageId });
    await broker.publish(EVENT_TYPES.feedbackSubmitted, body, { messageId });

    await waitFor(() => sink.matching(mark).length === 1, { what: 'the email' });
    await waitFor(async () => (await broker.messageCount(inbound.queue)) === 0, { what: 'both deliveries acked' });
    await delay(500);
    expect(sink.matching(mark)).toHaveLength(1);
  });

  it('sends one email when the notifier fails between enqueueing and committing, and the message is redelivered', async () => {
    const hub = notifier.app.get(LiveNotificationHub);
    const publish = hub.publish.bind(hub);
    let crashes = 1;
    hub.publish = async (notification) => {
      if (crashes > 0) {
        crashes -= 1;
        throw new Error('simulated crash after the email job was enqueued, before the inbox commit');
      }
      return publish(notification);
    };
    try {
      const mark = marker();
      const id = await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(mark));
      await waitFor(() => sink.matching(mark).length === 1, { what: 'the email after redelivery' });
      await waitFor(() => crashes === 0, { what: 'the simulated crash' });
      await waitFor(async () => (await broker.messageCount(inbound.queue)) === 0, { what: 'the redelivery to be acked' });
      await delay(500);
      expect(sink.matching(mark)).toHaveLength(1);
      const job = await emailQueue.getJob(`${id}_email`);
      expect(job?.attemptsMade).toBe(1);
    } finally {
      hub.publish = publish;
    }
  });

  const emailFailures = (outcome: 'retry' | 'final') => `notification_job_failures_total{queue="${JOB_QUEUES.sendEmail}",outcome="${outcome}"}`;

  it('retries while the SMTP server answers 4xx and delivers once it accepts', async () => {
    sink.refuse(451);
    const refusalsBefore = sink.refusals;
    const retriesBefore = (await scrapeMetrics(`${notifier.url}/metrics`))(emailFailures('retry')) ?? Number.NaN;
    const mark = marker();
    const id = await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(mark));
    // Counted on the job itself: the sink's refusals also count mails of other tests still retrying.
    await waitFor(async () => ((await emailQueue.getJob(`${id}_email`))?.attemptsMade ?? 0) >= 2, { what: 'two refused attempts of its job' });
    expect(sink.refusals).toBeGreaterThanOrEqual(refusalsBefore + 2);
    expect(sink.matching(mark)).toHaveLength(0);
    sink.accept();

    await waitFor(() => sink.matching(mark).length === 1, { what: 'delivery after the server recovered' });
    const job = await finishedJob(emailQueue, `${id}_email`, 'completed');
    expect(job.attemptsMade).toBeGreaterThanOrEqual(3);
    const metrics = await scrapeMetrics(`${notifier.url}/metrics`);
    expect(metrics(emailFailures('retry'))).toBe(retriesBefore + job.attemptsMade - 1);
  });

  it('fails a job at once on an SMTP 5xx and keeps it in the failed set', async () => {
    sink.refuse(550);
    const refusalsBefore = sink.refusals;
    const finalBefore = (await scrapeMetrics(`${notifier.url}/metrics`))(emailFailures('final')) ?? Number.NaN;
    try {
      const mark = marker();
      const id = await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(mark));
      const job = await finishedJob(emailQueue, `${id}_email`, 'failed');
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/^SMTP 550/);
      expect(sink.refusals - refusalsBefore).toBe(1);
      const failed = await emailQueue.getFailed();
      expect(failed.map((f) => f.id)).toContain(`${id}_email`);
      const metrics = await scrapeMetrics(`${notifier.url}/metrics`);
      expect(metrics(emailFailures('final'))).toBe(finalBefore + 1);
      expect(metrics(`notification_jobs{queue="${JOB_QUEUES.sendEmail}",state="failed"}`)).toBe(failed.length);
    } finally {
      sink.accept();
    }
  });

  it('dead-letters poison messages with a reason and goes on with the next good message', async () => {
    const mark = marker();
    const dlq = inbound.deadLetterQueue;
    await broker.publish(EVENT_TYPES.feedbackSubmitted, 'this is not json', { messageId: `poison-1-${mark}` });
    await broker.publish(EVENT_TYPES.feedbackSubmitted, JSON.stringify({ ...guestFeedback(mark), category: 'spam' }), { messageId: `poison-2-${mark}` });
    await broker.publish(EVENT_TYPES.feedbackSubmitted, JSON.stringify(guestFeedback(mark))); // no messageId: cannot be deduplicated
    await broker.sendToQueue(inbound.queue, '{}', { messageId: `poison-4-${mark}` }); // unknown routing key
    const good = `${mark}-good`;
    await producer.record(EVENT_TYPES.feedbackSubmitted, guestFeedback(good));

    await waitFor(() => sink.matching(good).length === 1, { what: 'the good message after the poison ones' });
    await waitFor(async () => ((await broker.messageCount(dlq)) ?? 0) >= 4, { what: 'four dead-lettered messages' });
    const metrics = await scrapeMetrics(`${notifier.url}/metrics`);
    expect(metrics(`amqp_dead_letter_messages{queue="${dlq}"}`)).toBe(4);
    expect(metrics(`amqp_queue_messages{queue="${inbound.queue}"}`)).toBe(0);
    const dead = await broker.drain(dlq);
    expect(dead.map((message) => message.properties.messageId).sort()).toEqual([`poison-1-${mark}`, `poison-2-${mark}`, `poison-4-${mark}`, undefined].sort());
    expect(sink.received.filter((mail) => mail.raw.includes(mark) && !mail.raw.includes(good))).toHaveLength(0);
  });

  it('an erasure: the goodbye email goes out and is not kept; mails kept or queued for that address are dropped (contract §11)', async () => {
    const address = `${marker()}@example.com`;
    const invitation = await producer.record(EVENT_TYPES.invitationCreated, {
      userId: 'u-erased',
      email: address,
      name: 'Soon Erased',
      role: 'customer',
      inviteUrl: 'http://localhost:3000/accept-invitation?token=abc',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await finishedJob(emailQueue, `${invitation}_email`, 'completed');

    const goodbye = await producer.record(EVENT_TYPES.accountDeletedNotice, { email: address, erasedAt: new Date().toISOString() });
    await waitFor(() => sink.received.some((mail) => mail.to.includes(address) && mail.subject === 'Your account has been deleted'), { what: 'the goodbye email' });
    await producer.record(EVENT_TYPES.userErased, { version: 1, userId: 'u-erased', erasedAt: new Date().toISOString(), emailDigest: emailDigest(address) });

    await waitFor(async () => (await emailQueue.getJob(`${invitation}_email`)) === undefined, { what: 'the invitation job forgotten' });
    await waitFor(async () => (await emailQueue.getJob(`${goodbye}_email`)) === undefined, { what: 'the goodbye job not kept once sent' });
    expect(sink.received.filter((mail) => mail.to.includes(address)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/invit/i), 'Your account has been deleted']);
  });

  it('sends every product email and SMS: invitation, reset (email and SMS), password changed, new device, verifications', async () => {
    const mark = marker();
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    const link = (path: string) => `http://localhost:3000/${path}?token=${mark}`;
    const ids = {
      invitation: await producer.record(EVENT_TYPES.invitationCreated, {
        userId: 'u1',
        email: 'new.staff@example.com',
        name: 'New Staff',
        role: 'staff',
        inviteUrl: link('invite'),
        expiresAt,
      }),
      resetEmail: await producer.record(EVENT_TYPES.passwordResetRequested, {
        userId: 'u2',
        name: null,
        otp: '482913',
        expiresAt,
        delivery: { channel: 'email', email: 'reset.me@example.com', resetUrl: link('reset') },
      }),
      resetSms: await producer.record(EVENT_TYPES.passwordResetRequested, {
        userId: 'u3',
        name: 'Phone User',
        otp: '112233',
        expiresAt,
        delivery: { channel: 'sms', phone: '+9779812345678' },
      }),
      changed: await producer.record(EVENT_TYPES.passwordChanged, { userId: 'u2', email: 'reset.me@example.com', name: 'Reset Me', changedAt: new Date().toISOString() }),
      verifyEmail: await producer.record(EVENT_TYPES.emailVerificationRequested, {
        userId: 'u4',
        email: 'verify.me@example.com',
        name: 'Verify Me',
        verifyUrl: link('verify'),
        expiresAt,
      }),
      verifyPhone: await producer.record(EVENT_TYPES.phoneVerificationRequested, { userId: 'u4', phone: '+9779800000000', otp: '777111', expiresAt }),
      newDevice: await producer.record(EVENT_TYPES.newDeviceSignedIn, {
        userId: 'u5',
        email: 'new.device@example.com',
        name: 'Kim',
        deviceId: 'pixel-7',
        deviceType: 'android',
        deviceName: 'Pixel of Kim',
        signedInAt: '2026-11-22T10:15:00.000Z',
      }),
    };

    const byId = (id: string) => sink.received.find((mail) => mail.messageId === `<${id}_email@example.com>`);
    await waitFor(() => [ids.invitation, ids.resetEmail, ids.changed, ids.verifyEmail, ids.newDevice].every(byId), { what: 'five emails' });
    expect(byId(ids.invitation)).toMatchObject({ to: ['new.staff@example.com'], subject: 'You have been invited to School Commerce' });
    expect(byId(ids.invitation)?.text).toContain(link('invite'));
    expect(byId(ids.invitation)?.html).toContain(`href="${link('invite')}"`);
    expect(byId(ids.resetEmail)).toMatchObject({ to: ['reset.me@example.com'], subject: 'Reset your password' });
    expect(byId(ids.resetEmail)?.text).toContain('482913');
    expect(byId(ids.resetEmail)?.text).toContain(link('reset'));
    expect(byId(ids.resetEmail)?.html).toContain('482913');
    expect(byId(ids.changed)).toMatchObject({ to: ['reset.me@example.com'], subject: 'Your password was changed' });
    expect(byId(ids.verifyEmail)).toMatchObject({ to: ['verify.me@example.com'], subject: 'Verify your email address' });
    expect(byId(ids.verifyEmail)?.text).toContain(link('verify'));
    expect(byId(ids.newDevice)).toMatchObject({ to: ['new.device@example.com'], subject: 'New sign-in to your account' });
    expect(byId(ids.newDevice)?.text).toContain('Pixel of Kim');
    expect(byId(ids.newDevice)?.html).toContain('2026-11-22 10:15 UTC');

    for (const [id, phone, otp] of [
      [ids.resetSms, '+9779812345678', '112233'],
      [ids.verifyPhone, '+9779800000000', '777111'],
    ] as const) {
      const job = await finishedJob(smsQueue, `${id}_sms`, 'completed');
      expect(job.data).toMatchObject({ to: phone, otp });
    }
    expect(byId(ids.resetSms)).toBeUndefined();
  });

  it('sends a job no worker holds any more once its lock ran out (EMAIL_JOB_LOCK_MS): a worker that died mid-job, or a move whose reply a Redis outage lost', async () => {
    const lockMs = 4_000;
    const ownPrefix = `${redisPrefix}stalled-`;
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(JOB_QUEUES.sendEmail, { connection, prefix: `${ownPrefix}bull` });
    // A worker takes the job under a lock of lockMs and is never heard of again.
    const gone = new Worker(JOB_QUEUES.sendEmail, null, { connection, prefix: `${ownPrefix}bull`, lockDuration: lockMs, autorun: false });
    const mark = marker();
    const jobId = `${mark}_email`;
    let second: NotifierInstance | undefined;
    try {
      await queue.add('feedback_submitted', { template: 'feedback_submitted', to: SUPPORT_EMAIL, data: guestFeedback(mark) }, { jobId });
      expect((await gone.getNextJob('worker-that-died'))?.id).toBe(jobId);
      // A replica of its own queues (no event reaches it while this test runs), started after the job was taken.
      second = await startNotifier(db.schema, {
        AMQP_URL: proxy.urlFor(TEST_AMQP_URL),
        AMQP_NAME_PREFIX: prefix,
        REDIS_KEY_PREFIX: ownPrefix,
        SMTP_URL: sink.url,
        SUPPORT_EMAIL,
        EMAIL_JOB_LOCK_MS: String(lockMs),
      });
      // Its stalled check runs every half lock: the job runs again within one and a half locks of being taken.
      const mails = await waitFor(() => (sink.matching(mark).length > 0 ? sink.matching(mark) : null), { what: 'the stalled job sent', timeoutMs: 3 * lockMs });
      expect(new Set(mails.map((mail) => mail.messageId))).toEqual(new Set([`<${jobId}@example.com>`]));
      expect((await finishedJob(queue, jobId, 'completed')).stalledCounter).toBe(1);
    } finally {
      await second?.close();
      await gone.close(true);
      await queue.close();
      await connection.quit();
    }
  });
});

/**
 * The job once it is `state`, read after its state: a job read before it finished (then its state
 * checked) would still show the attempts and reason of before (seen under load).
 */
function finishedJob(queue: Queue, jobId: string, state: 'completed' | 'failed'): Promise<Job> {
  return waitFor(async () => ((await queue.getJobState(jobId)) === state ? ((await queue.getJob(jobId)) ?? null) : null), { what: `job ${jobId} ${state}` });
}
