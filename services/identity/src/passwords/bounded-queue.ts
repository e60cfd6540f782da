import pLimit, { type LimitFunction } from 'p-limit';

/** The queue already holds as many waiting jobs as it may: the caller should come back later. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor() {
    super('the work queue is full');
  }
}

/**
 * Runs at most `concurrency` jobs at once and lets at most `maxWaiting` more wait for a turn; a job
 * beyond that is refused at once (QueueFullError) instead of waiting longer and longer.
 */
export class BoundedQueue {
  private readonly slots: LimitFunction;
  /** Accepted and not finished: running or waiting (p-limit counts a job as pending until its turn starts). */
  private accepted = 0;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    this.slots = pLimit(concurrency);
  }

  /** Jobs running now, and those waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.activeCount, waiting: this.slots.pendingCount };
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.accepted >= this.concurrency + this.maxWaiting) return Promise.reject(new QueueFullError());
    this.accepted += 1;
    return this.slots(work).finally(() => {
      this.accepted -= 1;
    });
  }
}
