import { FairScheduler, QueueFullError, QueueWaitTimeoutError } from '@school/async';
import { AppError } from '@school/http';
import { DEFAULT_CONVERSION_MEGAPIXELS, MAX_STILL_PIXELS } from './image-budget.js';

/** Seconds a client is told to wait after a 503 for want of a conversion slot. */
const RETRY_AFTER_SECONDS = 5;

/** What a conversion costs at least: a thumbnail's decode is not free, and 40 of them weigh as one maximal image. */
export const MIN_CONVERSION_PIXELS = MAX_STILL_PIXELS / 40;

/**
 * Conversions waiting at once in one process. Uploads in flight are already bounded (3 per user, 10
 * per ip at the gateway); this bounds the spooled files waiting for a turn whatever the number of users.
 */
export const MAX_WAITING_CONVERSIONS = 64;

/** One conversion: whose it is (the caller's account), what it decodes, and the request it serves. */
export interface ConversionJob {
  account: string;
  /** The pixels the image declares (every frame of an animation). */
  pixels: number;
  /** Aborts when the request is gone: a waiting conversion leaves the line, a running one is told to stop. */
  signal?: AbortSignal | undefined;
}

/**
 * Contract §9: at most `slots` conversions at once in this process, and at most `pixelBudget`
 * pixels being decoded (a costlier one, an animation of 100 MP, runs alone), one at a time per account; the waiting
 * ones are served account after account in turn, a turn weighted by pixels (a 40 MP image costs as
 * much as 40 small ones), so customers converting huge images cannot keep everyone else waiting. A
 * conversion that waits more than `maxWaitMs`, or finds the line full, is 503 SERVICE_UNAVAILABLE
 * with Retry-After.
 */
export class ConversionGate {
  private readonly scheduler: FairScheduler;

  constructor(slots: number, maxWaitMs: number, pixelBudget: number = DEFAULT_CONVERSION_MEGAPIXELS * 1_000_000) {
    this.scheduler = new FairScheduler({
      concurrency: slots,
      capacity: pixelBudget,
      maxWaiting: MAX_WAITING_CONVERSIONS,
      runningPerClient: 1,
      maxWaitMs,
    });
  }

  /** Conversions running now, and those waiting for a turn. */
  get load(): { running: number; waiting: number } {
    const { running, waiting, backlogged } = this.scheduler.load;
    return { running, waiting: waiting + backlogged };
  }

  async run<T>(work: (signal: AbortSignal) => Promise<T>, job: ConversionJob): Promise<T> {
    try {
      return await this.scheduler.run(work, { client: job.account, cost: Math.max(job.pixels, MIN_CONVERSION_PIXELS), signal: job.signal });
    } catch (error) {
      // Refused, waited too long, or its client is gone (then nobody reads the answer).
      if (error instanceof QueueFullError || error instanceof QueueWaitTimeoutError || job.signal?.aborted) {
        throw new AppError('SERVICE_UNAVAILABLE', undefined, { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) }, cause: error });
      }
      throw error;
    }
  }
}

export const CONVERSION_GATE = Symbol('CONVERSION_GATE');
