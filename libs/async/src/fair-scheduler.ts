/** The line already holds as many waiting jobs as it may (or this client's backlog is full): come back later. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor() {
    super('the work queue is full');
  }
}

/** The job waited `ms` for its turn without getting one; it never ran. */
export class QueueWaitTimeoutError extends Error {
  override readonly name = 'QueueWaitTimeoutError';
  constructor(readonly ms: number) {
    super(`no turn within ${ms} ms`);
  }
}

export interface FairSchedulerOptions {
  /** Jobs running at once. */
  concurrency: number;
  /** Total cost running at once (e.g. pixels being decoded); a job costing more runs alone. Default: no bound. */
  capacity?: number;
  /** Places in the waiting line, over all clients; past it a job is refused, displaces another's or waits in its backlog. */
  maxWaiting: number;
  /** Places in the line one client may hold. */
  placesPerClient?: number;
  /** Jobs of one client waiting outside the line for a place; past it, QueueFullError. */
  backlogPerClient?: number;
  /** Jobs of one client running at once. Default: no bound. */
  runningPerClient?: number;
  /** The longest a job waits for its turn (line and backlog); past it, QueueWaitTimeoutError. Default: no bound. */
  maxWaitMs?: number;
}

export interface JobOptions {
  /** Whom the job serves (an address, an account); jobs without one share a lane with no per-client caps. */
  client?: string | undefined;
  /** Its share of `capacity` (default 1); it also orders the turns, so a client of costly jobs is served less often. */
  cost?: number | undefined;
  /** Its requester is gone: a waiting job leaves the line, a running one has the signal it was given aborted. */
  signal?: AbortSignal | undefined;
}

/** Places in the line one client may hold by default (contract §9: the hash queue's fair share). */
export const PLACES_PER_CLIENT = 2;
/** Backlog per client by default: a client's burst (ten logins at once from one address) is served rather than refused. */
export const BACKLOG_PER_CLIENT = 16;
/**
 * Clients whose last service is remembered once they have nothing waiting: a client whose jobs all
 * ended (or were cancelled) and who comes straight back is not taken for a newcomer.
 */
const REMEMBERED_CLIENTS = 4096;

interface Job {
  lane: Lane;
  cost: number;
  /** The virtual time by which it should have been served; the line is served smallest first. */
  tag: number;
  seq: number;
  controller: AbortController;
  work: (signal: AbortSignal) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Clears the wait's timer (at its start, or when it leaves the line). */
  stopWaiting: () => void;
  /** Removes the listener of the caller's signal (once it is answered). */
  detach: () => void;
}

interface Lane {
  client: string | undefined;
  /** Its places in the line, oldest first. */
  line: Job[];
  backlog: Job[];
  running: number;
  /** The tag of its last job to take a place: its next one is served after it. */
  lastTag: number;
  /** The tag of its last job started (-Infinity: none yet). */
  startedTag: number;
}

/**
 * Runs jobs of many clients, fairly: at most `concurrency` at once and at most `capacity` of cost,
 * a bounded waiting line in which each client holds at most `placesPerClient` places (its further
 * jobs wait in its own backlog and take a place as one frees), served in turn weighted by cost (a
 * job of cost 40 counts as 40 jobs of cost 1 in its client's turns). When the line is full, a
 * client holding fewer places takes one from the client holding most (that job goes back to the
 * front of its client's backlog): a newcomer is never refused while others hold two. A job waits at
 * most `maxWaitMs`, and leaves as soon as its caller's signal aborts.
 */
export class FairScheduler {
  private readonly lanes = new Map<string, Lane>();
  /** The last start tag of clients with nothing waiting any more, oldest first. */
  private readonly lastServed = new Map<string, number>();
  private running = 0;
  private runningCost = 0;
  private waiting = 0;
  private backlogged = 0;
  /** Virtual time: the tag of the last job started. */
  private now = 0;
  private seq = 0;
  private readonly placesPerClient: number;
  private readonly backlogPerClient: number;

  constructor(private readonly options: FairSchedulerOptions) {
    this.placesPerClient = options.placesPerClient ?? PLACES_PER_CLIENT;
    this.backlogPerClient = options.backlogPerClient ?? BACKLOG_PER_CLIENT;
  }

  get concurrency(): number {
    return this.options.concurrency;
  }

  get maxWaiting(): number {
    return this.options.maxWaiting;
  }

  /** Jobs running now, those holding a place in the line, and those in the clients' backlogs. */
  get load(): { running: number; waiting: number; backlogged: number } {
    return { running: this.running, waiting: this.waiting, backlogged: this.backlogged };
  }

  run<T>(work: (signal: AbortSignal) => Promise<T>, options: JobOptions = {}): Promise<T> {
    const { signal } = options;
    // The caller's own abort reason, as an aborted fetch rejects with it.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted) return Promise.reject(signal.reason);
    const lane = this.laneOf(options.client);
    const capacity = this.options.capacity ?? Infinity;
    const cost = Math.min(Math.max(options.cost ?? 1, 0), capacity);
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        lane,
        cost,
        tag: 0,
        seq: (this.seq += 1),
        controller: new AbortController(),
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        stopWaiting: () => undefined,
        detach: () => undefined,
      };
      if (!this.admit(job)) {
        this.dropLaneIfIdle(lane);
        reject(new QueueFullError());
        return;
      }
      const onAbort = () => {
        if (!this.abandon(job, signal!.reason)) job.controller.abort(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      job.detach = () => signal?.removeEventListener('abort', onAbort);
      const maxWaitMs = this.options.maxWaitMs;
      if (maxWaitMs !== undefined && Number.isFinite(maxWaitMs)) {
        const timer = setTimeout(() => this.abandon(job, new QueueWaitTimeoutError(maxWaitMs)), maxWaitMs);
        job.stopWaiting = () => clearTimeout(timer);
      }
      this.dispatch();
    });
  }

  private laneOf(client: string | undefined): Lane {
    const key = client === undefined ? '' : `@${client}`;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { client, line: [], backlog: [], running: 0, lastTag: 0, startedTag: this.lastServed.get(key) ?? -Infinity };
      this.lastServed.delete(key);
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** A place in the line for `job`, or one in its client's backlog; false: refused. */
  private admit(job: Job): boolean {
    const { lane } = job;
    if (this.waiting === 0 && this.mayStart(job)) {
      // A free slot and nobody ahead: it starts at once, whatever the line's bound.
      this.takePlace(job);
      return true;
    }
    const capped = lane.client !== undefined;
    if (capped && lane.backlog.length > 0) return this.toBacklog(job);
    if (capped && lane.line.length >= this.placesPerClient) return this.toBacklog(job);
    if (this.waiting < this.options.maxWaiting) {
      this.takePlace(job);
      return true;
    }
    if (!capped) return false;
    const richest = this.richestLane();
    if (richest && richest !== lane && richest.line.length > lane.line.length + (lane.line.length > 0 ? 1 : 0)) {
      this.displaceFrom(richest);
      this.takePlace(job);
      return true;
    }
    return lane.line.length > 0 && this.toBacklog(job);
  }

  private toBacklog(job: Job): boolean {
    if (job.lane.backlog.length >= this.backlogPerClient) return false;
    job.lane.backlog.push(job);
    this.backlogged += 1;
    return true;
  }

  private takePlace(job: Job): void {
    const { lane } = job;
    job.tag = Math.max(this.now, lane.lastTag) + job.cost;
    lane.lastTag = job.tag;
    lane.line.push(job);
    this.waiting += 1;
  }

  /** The client (never the shared lane) holding most places, the one that took its last place earliest among equals. */
  private richestLane(): Lane | undefined {
    let richest: Lane | undefined;
    for (const lane of this.lanes.values()) {
      if (lane.client === undefined || lane.line.length === 0) continue;
      if (!richest || lane.line.length > richest.line.length) richest = lane;
    }
    return richest;
  }

  /** Its newest place goes: that job waits at the front of its backlog, its client's next turn comes later. */
  private displaceFrom(lane: Lane): void {
    const job = lane.line.pop()!;
    this.waiting -= 1;
    lane.lastTag = lane.line.at(-1)?.tag ?? Math.max(lane.startedTag, 0);
    lane.backlog.unshift(job);
    this.backlogged += 1;
    if (lane.backlog.length > this.backlogPerClient) {
      const refused = lane.backlog.pop()!;
      this.backlogged -= 1;
      refused.stopWaiting();
      refused.detach();
      refused.reject(new QueueFullError());
    }
  }

  /** Starts what may start, then lets backlogged jobs take the places that are free. */
  private dispatch(): void {
    for (;;) {
      const job = this.nextInTurn();
      // The next in turn waits for room rather than being overtaken: a costly job is never starved by cheap ones.
      if (!job || !this.mayStart(job)) break;
      this.start(job);
    }
    this.refill();
  }

  private mayStart(job: Job): boolean {
    const fits = this.running === 0 || this.runningCost + job.cost <= (this.options.capacity ?? Infinity);
    return fits && this.running < this.options.concurrency && !this.atClientLimit(job.lane);
  }

  private atClientLimit(lane: Lane): boolean {
    return lane.client !== undefined && lane.running >= (this.options.runningPerClient ?? Infinity);
  }

  /**
   * The waiting job with the smallest tag among the clients that may run one more; among equal tags,
   * the one of the client served longest ago (a newcomer first: with many clients in the line, their
   * heads share a tag, and a newcomer would otherwise wait a whole round of them), then the oldest.
   */
  private nextInTurn(): Job | undefined {
    let next: Job | undefined;
    for (const lane of this.lanes.values()) {
      const head = lane.line[0];
      if (!head || this.atClientLimit(lane)) continue;
      if (!next || this.comesBefore(head, next)) next = head;
    }
    return next;
  }

  private comesBefore(job: Job, other: Job): boolean {
    if (job.tag !== other.tag) return job.tag < other.tag;
    if (job.lane.startedTag !== other.lane.startedTag) return job.lane.startedTag < other.lane.startedTag;
    return job.seq < other.seq;
  }

  private refill(): void {
    while (this.waiting < this.options.maxWaiting) {
      let poorest: Lane | undefined;
      for (const lane of this.lanes.values()) {
        if (lane.backlog.length === 0 || lane.line.length >= this.placesPerClient) continue;
        if (!poorest || lane.line.length < poorest.line.length || (lane.line.length === poorest.line.length && lane.backlog[0]!.seq < poorest.backlog[0]!.seq)) {
          poorest = lane;
        }
      }
      if (!poorest) return;
      this.backlogged -= 1;
      this.takePlace(poorest.backlog.shift()!);
    }
  }

  private start(job: Job): void {
    const { lane } = job;
    lane.line.shift();
    this.waiting -= 1;
    this.now = Math.max(this.now, job.tag - job.cost);
    this.running += 1;
    this.runningCost += job.cost;
    lane.running += 1;
    job.stopWaiting();
    lane.startedTag = job.tag;
    const finish = () => {
      job.detach();
      this.running -= 1;
      this.runningCost -= job.cost;
      lane.running -= 1;
      this.dropLaneIfIdle(lane);
      this.dispatch();
    };
    // The slot is free before the caller hears the outcome, so its next job finds it free.
    void Promise.resolve()
      .then(() => job.work(job.controller.signal))
      .then(
        (value) => (finish(), job.resolve(value)),
        (error: unknown) => (finish(), job.reject(error)),
      );
  }

  /** Out of the line or backlog with `reason`; false when it is running (or done). */
  private abandon(job: Job, reason: unknown): boolean {
    if (!this.remove(job)) return false;
    job.stopWaiting();
    job.detach();
    job.reject(reason);
    this.dispatch();
    return true;
  }

  private remove(job: Job): boolean {
    const { lane } = job;
    const inLine = lane.line.indexOf(job);
    if (inLine >= 0) {
      lane.line.splice(inLine, 1);
      this.waiting -= 1;
    } else {
      const inBacklog = lane.backlog.indexOf(job);
      if (inBacklog < 0) return false;
      lane.backlog.splice(inBacklog, 1);
      this.backlogged -= 1;
    }
    this.dropLaneIfIdle(lane);
    return true;
  }

  private dropLaneIfIdle(lane: Lane): void {
    if (lane.running > 0 || lane.line.length > 0 || lane.backlog.length > 0) return;
    const key = lane.client === undefined ? '' : `@${lane.client}`;
    this.lanes.delete(key);
    if (lane.startedTag === -Infinity) return;
    this.lastServed.set(key, lane.startedTag);
    if (this.lastServed.size > REMEMBERED_CLIENTS) this.lastServed.delete(this.lastServed.keys().next().value!);
  }
}
