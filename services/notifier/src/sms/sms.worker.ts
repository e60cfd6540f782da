import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUES } from '../jobs/job-queues.js';
import { APP_CONFIG } from '@school/service';
import type { Job, Worker } from 'bullmq';
import type { NotifierConfig } from '../config.js';
import { NotificationChannels } from '../jobs/notification-channel.js';
import type { Traced } from '../jobs/traced-job.js';
import { SMS_DRIVER, type SmsDriver } from './sms-driver.js';
import { smsText, type SmsJob } from './sms-job.js';

/** Consumes `notification.send_sms` through the configured driver, with the queue's retries. */
@Injectable()
export class SmsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker: Worker<Traced<SmsJob>> | undefined;

  constructor(
    private readonly channels: NotificationChannels,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    @Inject(SMS_DRIVER) private readonly driver: SmsDriver,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = this.channels.worker<SmsJob>({
      channel: 'sms',
      queue: JOB_QUEUES.sendSms,
      concurrency: this.config.SMS_CONCURRENCY,
      deliver: (job) => this.send(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  private async send(job: Job<Traced<SmsJob>>): Promise<void> {
    await this.driver.send({ to: job.data.to, text: smsText(job.data), secret: job.data.otp });
  }
}
