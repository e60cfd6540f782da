import { Inject, Injectable, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, ReadinessRegistry } from '@school/service';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { RedisLinkLog } from '../redis/redis-link-log.js';
import { REDIS, REDIS_NAMES, type RedisNames } from '../redis/redis.module.js';
import { JobMetrics, JobMetricsModule } from './job-metrics.js';
import { notificationJobOptions } from './job-options.js';
import { inJobSpan, type Traced } from './traced-job.js';

/** One way a notification leaves the notifier (email, SMS): its BullMQ queue and how a job is delivered. */
export interface ChannelSpec<Data extends { template: string }> {
  /** `email` or `sms`: names the queue's and the worker's Redis link, readiness check and logs. */
  channel: string;
  queue: string;
  /** Jobs delivered at once by this replica. */
  concurrency: number;
  /**
   * How long a job's lock lasts without renewal before another worker may take the job. The
   * stalled check runs twice per lock, so such a job runs again within one and a half locks.
   */
  lockDurationMs?: number;
  /** Delivers the job; an UnrecoverableError fails it at once, any other error is retried with backoff. */
  deliver(job: Job<Traced<Data>>): Promise<void>;
}

/**
 * The queue and the worker of a notification channel, the same for every channel: jobs retried
 * with exponential backoff (notificationJobOptions), a job out of attempts kept in the failed set
 * and logged at error level, a failed attempt counted (retry or final), the Redis links tracked, the
 * worker reported by /health/ready as `<channel>-worker`.
 */
@Injectable()
export class NotificationChannels {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_NAMES) private readonly names: RedisNames,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    private readonly readiness: ReadinessRegistry,
    private readonly link: RedisLinkLog,
    private readonly metrics: JobMetrics,
  ) {}

  /** The producer side; adding a job whose id already exists is a no-op (BullMQ), so one notification is one message. */
  queue<Data extends { template: string }>(spec: Pick<ChannelSpec<Data>, 'channel' | 'queue'>): Queue<Traced<Data>> {
    const queue = new Queue<Traced<Data>>(spec.queue, { connection: this.redis, prefix: this.names.bullPrefix, defaultJobOptions: notificationJobOptions(this.config) });
    this.link.track(`${spec.channel}-queue`, queue);
    this.metrics.watch(queue);
    return queue;
  }

  /** Starts consuming the channel's queue; close the worker before the shared Redis connection. */
  worker<Data extends { template: string }>(spec: ChannelSpec<Data>): Worker<Traced<Data>> {
    const logger = new Logger(`${spec.channel}-worker`);
    const worker = new Worker<Traced<Data>>(spec.queue, (job) => inJobSpan(spec.queue, job, () => spec.deliver(job)), {
      connection: this.redis,
      prefix: this.names.bullPrefix,
      concurrency: spec.concurrency,
      ...(spec.lockDurationMs !== undefined && { lockDuration: spec.lockDurationMs, stalledInterval: spec.lockDurationMs / 2 }),
    });
    worker.on('failed', (job, error) => {
      const final = error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || (job?.attemptsMade ?? 0) >= (job?.opts.attempts ?? 1);
      this.metrics.failed(spec.queue, final);
      const fields = { jobId: job?.id, template: job?.data.template, attempts: job?.attemptsMade, reason: error.message };
      if (final) logger.error({ ...fields, msg: `${spec.channel} not delivered; job kept in the failed set` });
      else logger.warn({ ...fields, msg: `${spec.channel} attempt failed; retrying with backoff` });
    });
    this.link.track(`${spec.channel}-worker`, worker);
    this.readiness.register(`${spec.channel}-worker`, async () => {
      if (!worker.isRunning()) throw new Error(`${spec.channel} worker is not running`);
    });
    return worker;
  }
}

/** Imported by the email and SMS modules. */
@Module({ imports: [JobMetricsModule], providers: [NotificationChannels], exports: [NotificationChannels] })
export class NotificationChannelsModule {}
