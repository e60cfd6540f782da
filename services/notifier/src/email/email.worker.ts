import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUES } from '@school/messaging';
import { APP_CONFIG, ReadinessRegistry } from '@school/service';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { JobMetrics } from '../jobs/job-metrics.js';
import { inJobSpan, type Traced } from '../jobs/traced-job.js';
import { RedisLinkLog } from '../redis/redis-link-log.js';
import { REDIS, REDIS_NAMES, type RedisNames } from '../redis/redis.module.js';
import type { EmailJob } from './email-job.js';
import { EMAIL_JOB_LOCK_MS, MAILER, type Mailer } from './mailer.js';
import { isPermanentSmtpFailure, smtpReplyCode } from './smtp-errors.js';
import { renderEmail } from './templates/index.js';

/**
 * Consumes `notification.send_email`: renders the template and sends it. An SMTP 5xx fails the
 * job at once (UnrecoverableError); anything else is retried with the queue's exponential
 * backoff. A job out of attempts stays in the failed set and is logged at error level.
 */
@Injectable()
export class EmailWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EmailWorker');
  private worker: Worker<Traced<EmailJob>> | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_NAMES) private readonly names: RedisNames,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly readiness: ReadinessRegistry,
    private readonly link: RedisLinkLog,
    private readonly metrics: JobMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const worker = new Worker<Traced<EmailJob>>(JOB_QUEUES.sendEmail, (job) => inJobSpan(JOB_QUEUES.sendEmail, job, () => this.send(job)), {
      connection: this.redis,
      prefix: this.names.bullPrefix,
      concurrency: this.config.EMAIL_CONCURRENCY,
      lockDuration: EMAIL_JOB_LOCK_MS,
    });
    worker.on('failed', (job, error) => this.onFailed(job, error));
    this.link.track('email-worker', worker);
    this.worker = worker;
    this.readiness.register('email-worker', async () => {
      if (!worker.isRunning()) throw new Error('email worker is not running');
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Lets the jobs in progress finish (their lock would otherwise expire and they would run again).
    await this.worker?.close();
    this.mailer.close();
  }

  private async send(job: Job<Traced<EmailJob>>): Promise<void> {
    const rendered = renderEmail(job.data, { supportEmail: this.config.SUPPORT_EMAIL });
    try {
      await this.mailer.send({ to: job.data.to, id: job.id ?? job.name, ...rendered });
    } catch (error) {
      if (isPermanentSmtpFailure(error)) {
        throw new UnrecoverableError(`SMTP ${smtpReplyCode(error)}: ${error instanceof Error ? error.message : String(error)}`);
      }
      throw error;
    }
  }

  private onFailed(job: Job<Traced<EmailJob>> | undefined, error: Error): void {
    const fields = { jobId: job?.id, template: job?.data.template, attempts: job?.attemptsMade, reason: error.message };
    const final = error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || (job?.attemptsMade ?? 0) >= (job?.opts.attempts ?? 1);
    this.metrics.failed(JOB_QUEUES.sendEmail, final);
    if (final) this.logger.error({ ...fields, msg: 'email not delivered; job kept in the failed set' });
    else this.logger.warn({ ...fields, msg: 'email attempt failed; retrying with backoff' });
  }
}
