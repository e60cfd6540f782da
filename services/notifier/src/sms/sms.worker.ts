import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUES } from '@school/messaging';
import { APP_CONFIG, ReadinessRegistry } from '@school/service';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { JobMetrics } from '../jobs/job-metrics.js';
import { inJobSpan, type Traced } from '../jobs/traced-job.js';
import { RedisLinkLog } from '../redis/redis-link-log.js';
import { REDIS, REDIS_NAMES, type RedisNames } from '../redis/redis.module.js';
import { SMS_DRIVER, type SmsDriver } from './sms-driver.js';
import { smsText, type SmsJob } from './sms-job.js';

/** Consumes `notification.send_sms` through the configured driver, with the queue's retries. */
@Injectable()
export class SmsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SmsWorker');
  private worker: Worker<Traced<SmsJob>> | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_NAMES) private readonly names: RedisNames,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    @Inject(SMS_DRIVER) private readonly driver: SmsDriver,
    private readonly readiness: ReadinessRegistry,
    private readonly link: RedisLinkLog,
    private readonly metrics: JobMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const worker = new Worker<Traced<SmsJob>>(JOB_QUEUES.sendSms, (job) => inJobSpan(JOB_QUEUES.sendSms, job, () => this.send(job)), {
      connection: this.redis,
      prefix: this.names.bullPrefix,
      concurrency: this.config.EMAIL_CONCURRENCY,
    });
    worker.on('failed', (job, error) => {
      const final = (job?.attemptsMade ?? 0) >= (job?.opts.attempts ?? 1);
      this.metrics.failed(JOB_QUEUES.sendSms, final);
      const fields = { jobId: job?.id, template: job?.data.template, attempts: job?.attemptsMade, reason: error.message };
      if (final) this.logger.error({ ...fields, msg: 'SMS not delivered; job kept in the failed set' });
      else this.logger.warn({ ...fields, msg: 'SMS attempt failed; retrying with backoff' });
    });
    this.link.track('sms-worker', worker);
    this.worker = worker;
    this.readiness.register('sms-worker', async () => {
      if (!worker.isRunning()) throw new Error('SMS worker is not running');
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  private async send(job: Job<Traced<SmsJob>>): Promise<void> {
    await this.driver.send({ to: job.data.to, text: smsText(job.data), secret: job.data.otp });
  }
}
