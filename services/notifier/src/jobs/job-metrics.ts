import { Injectable, Module } from '@nestjs/common';
import { Counter, registerScrapedGauges, Registry } from '@school/metrics';
import type { Queue } from 'bullmq';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Failed email and SMS job attempts (counted by the workers) and the queues' job counts (read at scrape time). */
@Injectable()
export class JobMetrics {
  private readonly failures: Counter<'queue' | 'outcome'>;
  private readonly queues: Queue[] = [];

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'notification_job_failures_total',
      help: 'Failed attempts of email and SMS jobs by queue and outcome: retry (tried again after a backoff) or final (left in the failed set).',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    });
    registerScrapedGauges({
      registry,
      source: 'notification job queues',
      gauges: { notification_jobs: { help: 'BullMQ jobs of the notifier by queue and state.', labelNames: ['queue', 'state'] } },
      read: async () => ({ notification_jobs: (await Promise.all(this.queues.map(countJobs))).flat() }),
    });
  }

  watch(queue: Queue): void {
    this.queues.push(queue);
    this.failures.labels(queue.name, 'retry').inc(0);
    this.failures.labels(queue.name, 'final').inc(0);
  }

  failed(queue: string, final: boolean): void {
    this.failures.labels(queue, final ? 'final' : 'retry').inc();
  }
}

async function countJobs(queue: Queue) {
  const counts = await queue.getJobCounts(...JOB_STATES);
  return JOB_STATES.map((state) => ({ labels: { queue: queue.name, state }, value: counts[state] ?? 0 }));
}

/** One JobMetrics for every notification channel (NotificationChannelsModule). */
@Module({ providers: [JobMetrics], exports: [JobMetrics] })
export class JobMetricsModule {}
