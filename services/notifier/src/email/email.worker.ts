import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUES } from '../jobs/job-queues.js';
import { APP_CONFIG } from '@school/service';
import { UnrecoverableError, type Job, type Worker } from 'bullmq';
import type { NotifierConfig } from '../config.js';
import { NotificationChannels } from '../jobs/notification-channel.js';
import type { Traced } from '../jobs/traced-job.js';
import type { EmailJob } from './email-job.js';
import { MAILER, type Mailer } from './mailer.js';
import { isPermanentSmtpFailure, smtpReplyCode } from './smtp-errors.js';
import { renderEmail } from './templates/index.js';

/**
 * Consumes `notification.send_email`: renders the template and sends it. An SMTP 5xx fails the
 * job at once (UnrecoverableError); anything else is retried with the queue's exponential
 * backoff (NotificationChannels).
 */
@Injectable()
export class EmailWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker: Worker<Traced<EmailJob>> | undefined;

  constructor(
    private readonly channels: NotificationChannels,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = this.channels.worker<EmailJob>({
      channel: 'email',
      queue: JOB_QUEUES.sendEmail,
      concurrency: this.config.EMAIL_CONCURRENCY,
      lockDurationMs: this.config.EMAIL_JOB_LOCK_MS,
      deliver: (job) => this.send(job),
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
}
