import { AppError } from '@school/http';

/** Seconds a client is told to wait after a 503 for want of a conversion slot. */
const RETRY_AFTER_SECONDS = 5;

/**
 * At most `slots` conversions at once in this process (contract §9); the others wait in arrival
 * order, each at most `maxWaitMs`, after which it is 503 SERVICE_UNAVAILABLE with Retry-After.
 */
export class ConversionGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly slots: number,
    private readonly maxWaitMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.slots) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        reject(new AppError('SERVICE_UNAVAILABLE', undefined, { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } }));
      }, this.maxWaitMs);
      this.waiting.push(granted);
    });
  }

  /** The slot passes straight to the next waiter, so `running` never drops below what is in use. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

export const CONVERSION_GATE = Symbol('CONVERSION_GATE');
