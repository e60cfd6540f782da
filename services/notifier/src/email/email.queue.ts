import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { JOB_QUEUES } from '../jobs/job-queues.js';
import type { Queue } from 'bullmq';
import { emailDigest } from '@school/http';
import { NotificationChannels } from '../jobs/notification-channel.js';
import { traced, type Traced } from '../jobs/traced-job.js';
import type { EmailJob } from './email-job.js';

/** The producer side of the BullMQ queue `notification.send_email`. */
@Injectable()
export class EmailQueue implements BeforeApplicationShutdown {
  readonly queue: Queue<Traced<EmailJob>>;

  constructor(channels: NotificationChannels) {
    this.queue = channels.queue<EmailJob>({ channel: 'email', queue: JOB_QUEUES.sendEmail });
  }

  /**
   * Adding a job whose id already exists is a no-op (BullMQ), so one notification is one email.
   * `forgetOnceSent`: the job (its address with it) is removed as soon as it is sent, not kept a day.
   */
  async enqueue(jobId: string, job: EmailJob, options: { forgetOnceSent?: boolean } = {}): Promise<void> {
    await this.queue.add(job.template, traced(job), { jobId, ...(options.forgetOnceSent && { removeOnComplete: true }) });
  }

  /**
   * Contract §11: every email job to an erased account's address (found by its digest) that is not
   * being sent right now, waiting or kept after it ran, is removed: no mail queued for the account
   * goes out, and no copy of the address stays. The goodbye email (`keep`) is the one exception.
   */
  async forgetAddress(digest: string, keep: EmailJob['template']): Promise<number> {
    const jobs = await this.queue.getJobs(['waiting', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed']);
    const theirs = jobs.filter((job) => job?.data && job.data.template !== keep && emailDigest(job.data.to) === digest);
    const removed = await Promise.all(
      theirs.map((job) =>
        job.remove().then(
          () => 1,
          () => 0,
        ),
      ),
    );
    return removed.reduce<number>((sum, one) => sum + one, 0);
  }

  /** Before the shared Redis connection is closed (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
