import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { JOB_QUEUES } from '../jobs/job-queues.js';
import type { Queue } from 'bullmq';
import { NotificationChannels } from '../jobs/notification-channel.js';
import { traced, type Traced } from '../jobs/traced-job.js';
import type { SmsJob } from './sms-job.js';

/** The producer side of the BullMQ queue `notification.send_sms`. */
@Injectable()
export class SmsQueue implements BeforeApplicationShutdown {
  readonly queue: Queue<Traced<SmsJob>>;

  constructor(channels: NotificationChannels) {
    this.queue = channels.queue<SmsJob>({ channel: 'sms', queue: JOB_QUEUES.sendSms });
  }

  /** Adding a job whose id already exists is a no-op (BullMQ), so one notification is one SMS. */
  async enqueue(jobId: string, job: SmsJob): Promise<void> {
    await this.queue.add(job.template, traced(job), { jobId });
  }

  /** Before the shared Redis connection is closed (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
