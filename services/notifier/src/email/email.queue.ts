import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { JOB_QUEUES } from '@school/messaging';
import { APP_CONFIG } from '@school/service';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { JobMetrics } from '../jobs/job-metrics.js';
import { traced, type Traced } from '../jobs/traced-job.js';
import { RedisLinkLog } from '../redis/redis-link-log.js';
import { REDIS, REDIS_NAMES, type RedisNames } from '../redis/redis.module.js';
import type { EmailJob } from './email-job.js';
import { notificationJobOptions } from './job-options.js';

/** The producer side of the BullMQ queue `notification.send_email`. */
@Injectable()
export class EmailQueue implements BeforeApplicationShutdown {
  readonly queue: Queue<Traced<EmailJob>>;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(REDIS_NAMES) names: RedisNames,
    @Inject(APP_CONFIG) config: NotifierConfig,
    link: RedisLinkLog,
    metrics: JobMetrics,
  ) {
    this.queue = new Queue<Traced<EmailJob>>(JOB_QUEUES.sendEmail, {
      connection: redis,
      prefix: names.bullPrefix,
      defaultJobOptions: notificationJobOptions(config),
    });
    link.track('email-queue', this.queue);
    metrics.watch(this.queue);
  }

  /** Adding a job whose id already exists is a no-op (BullMQ), so one notification is one email. */
  async enqueue(jobId: string, job: EmailJob): Promise<void> {
    await this.queue.add(job.template, traced(job), { jobId });
  }

  /** Before the shared Redis connection is closed (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
