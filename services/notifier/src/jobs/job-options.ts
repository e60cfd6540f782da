import type { DefaultJobOptions } from 'bullmq';
import type { NotifierConfig } from '../config.js';

/**
 * Email and SMS jobs: retried with exponential backoff, failed jobs kept (the failed set is what
 * an operator inspects and retries), completed jobs kept a day: while a job exists, adding one
 * with the same id is ignored, which is what makes a repeated enqueue of one event harmless.
 */
export function notificationJobOptions(config: Pick<NotifierConfig, 'EMAIL_ATTEMPTS' | 'EMAIL_BACKOFF_MS'>): DefaultJobOptions {
  return {
    attempts: config.EMAIL_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.EMAIL_BACKOFF_MS },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: false,
  };
}
