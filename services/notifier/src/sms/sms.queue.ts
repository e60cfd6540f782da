import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { JOB_QUEUES } from '@school/messaging';
import { APP_CONFIG } from '@school/service';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { notificationJobOptions } from '../email/job-options.js';
import { JobMetrics } from '../jobs/job-metrics.js';
import { traced, type Traced } from '../jobs/traced-job.js';
import { RedisLinkLog } from '../redis/redis-link-log.js';
import { REDIS, REDIS_NAMES, type RedisNames } from '../redis/redis.module.js';
import type { SmsJob } from './sms-job.js';

/** The producer side of the BullMQ queue `notification.send_sms`. */
@Injectable()
export class SmsQueue implements BeforeApplicationShutdown {
  readonly queue: Queue<Traced<SmsJob>>;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(REDIS_NAMES) names: RedisNames,
    @Inject(APP_CONFIG) config: NotifierConfig,
    link: RedisLinkLog,
    metrics: JobMetrics,
  ) {
    this.queue = new Queue<Traced<SmsJob>>(JOB_QUEUES.sendSms, { connection: redis, prefix: names.bullPrefix, defaultJobOptions: notificationJobOptions(config) });
    link.track('sms-queue', this.queue);
    metrics.watch(this.queue);
  }

  async enqueue(jobId: string, job: SmsJob): Promise<void> {
    await this.queue.add(job.template, traced(job), { jobId });
  }

  /** Before the shared Redis connection is closed (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
