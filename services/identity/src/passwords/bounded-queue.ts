/** The queue already holds as many waiting jobs as it may (or as many as this client may): the caller should come back later. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor() {
    super('the work queue is full');
  }
}

/** Places in the waiting line one client may hold at once (contract §9: the hash queue's fair share). */
export const PLACES_PER_CLIENT = 2;
/**
 * Jobs of one client waiting behind its places, outside the line: they take no place another client
 * could have, and a client's burst (ten logins at once from one address) is served rather than refused.
 */
export const BACKLOG_PER_CLIENT = 16;

interface Job {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Runs at most `concurrency` jobs at once and lets at most `maxWaiting` more wait for a turn; a job
 * beyond that is refused at once (QueueFullError) instead of waiting longer and longer. Jobs carry
 * the client they serve (its address): the waiting ones are served one client after another in
 * turn, and a client holds at most `placesPerClient` places in the line; its further jobs wait in
 * its own backlog (at most BACKLOG_PER_CLIENT, then refused) and take a place as one of its own
 * frees. So a flood from a few addresses cannot fill the line and keep everyone else waiting or
 * refused. Jobs without a client share one lane with no such cap (start-up work, routes that do
 * not name their caller).
 */
export class BoundedQueue {
  private running = 0;
  private waiting = 0;
  /** The waiting jobs of each client, and the clients with waiting jobs in the order they are served. */
  private readonly lanes = new Map<string, Job[]>();
  private readonly turns: string[] = [];
  /** Jobs of clients whose places are all taken, each waiting for one of them. */
  private readonly backlogs = new Map<string, Job[]>();

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    readonly placesPerClient: number = PLACES_PER_CLIENT,
  ) {}

  /** Jobs running now, and those waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  run<T>(work: () => Promise<T>, client?: string): Promise<T> {
    const lane = client === undefined ? '' : `@${client}`;
    const mustWait = this.running >= this.concurrency;
    const placesTaken = mustWait && client !== undefined && (this.lanes.get(lane)?.length ?? 0) >= this.placesPerClient;
    if (placesTaken) return this.waitInBacklog(lane, work);
    if (this.running + this.waiting >= this.concurrency + this.maxWaiting) return Promise.reject(new QueueFullError());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { work, resolve: resolve as (value: unknown) => void, reject };
      if (!mustWait) {
        this.start(job);
        return;
      }
      const jobs = this.lanes.get(lane);
      if (jobs) jobs.push(job);
      else {
        this.lanes.set(lane, [job]);
        this.turns.push(lane);
      }
      this.waiting += 1;
    });
  }

  private waitInBacklog<T>(lane: string, work: () => Promise<T>): Promise<T> {
    const backlog = this.backlogs.get(lane) ?? [];
    if (backlog.length >= BACKLOG_PER_CLIENT) return Promise.reject(new QueueFullError());
    return new Promise<T>((resolve, reject) => {
      backlog.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.backlogs.set(lane, backlog);
    });
  }

  private start(job: Job): void {
    this.running += 1;
    void Promise.resolve()
      .then(job.work)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running -= 1;
        this.next();
      });
  }

  /** The next client in turn gets the free slot; it goes to the back of the line if it has more waiting. */
  private next(): void {
    const lane = this.turns.shift();
    if (lane === undefined) return;
    const jobs = this.lanes.get(lane)!;
    const job = jobs.shift()!;
    this.waiting -= 1;
    const backlog = this.backlogs.get(lane);
    if (backlog) {
      // The place it freed goes to the client's next job.
      jobs.push(backlog.shift()!);
      this.waiting += 1;
      if (backlog.length === 0) this.backlogs.delete(lane);
    }
    if (jobs.length > 0) this.turns.push(lane);
    else this.lanes.delete(lane);
    this.start(job);
  }
}
