import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { FairScheduler, QueueFullError } from '@school/async';
import { AppError } from '@school/http';
import { type HashCost, OWASP_HASH_COST } from './passwords.config.js';

/** argon2's options for new hashes at `cost`: argon2id, one lane. */
export const argon2Options = (cost: HashCost = OWASP_HASH_COST): argon2.HashOptions => ({ type: argon2.argon2id, parallelism: 1, ...cost });

/**
 * How many hashes or verifications run at once: one per core, and always one thread of libuv's pool
 * (UV_THREADPOOL_SIZE, default 4, fixed at process start) left for the rest of its work (DNS
 * lookups, file access), which would otherwise wait behind argon2id during a burst of logins.
 */
export function hashingConcurrency(cores = availableParallelism(), threadPoolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4): number {
  return Math.max(1, Math.min(cores, threadPoolSize - 1));
}

/** The longest a hash should wait for a core: past it, telling the client to come back beats making it wait. */
export const TARGET_WORST_WAIT_MS = 1_000;

/** One argon2id at OWASP_HASH_COST on a server core: about 25 ms measured; a slower core is assumed. */
export const ESTIMATED_HASH_MS = 50;

/**
 * The default bound of the waiting jobs: as many as the running slots clear within the target worst
 * wait (2 slots: 2 x 1000 / 50 = 40 waiting, the last one served after about a second).
 */
export function defaultMaxWaiting(concurrency: number): number {
  return concurrency * Math.floor(TARGET_WORST_WAIT_MS / ESTIMATED_HASH_MS);
}

/** A full queue drains within about the target worst wait. */
export const BUSY_RETRY_AFTER_SECONDS = Math.max(1, Math.ceil(TARGET_WORST_WAIT_MS / 1_000));

/** 503 SERVICE_UNAVAILABLE with Retry-After: every route that hashes or verifies answers it when the queue is full. */
export function hashingBusy(cause?: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'Too many password checks are in progress; please retry shortly', {
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
    cause,
  });
}

export interface HasherOptions {
  /** Jobs at once (hashingConcurrency()). */
  concurrency?: number;
  /** Jobs that may wait beyond them (defaultMaxWaiting(concurrency)). */
  maxWaiting?: number;
  /** For new hashes (OWASP_HASH_COST). */
  cost?: HashCost;
}

/**
 * The rest wait their turn beyond `hashingConcurrency()`, and at most `maxWaiting` of them, served
 * one client (address) after another, none holding more than 2 places in the line (contract §9;
 * its further jobs wait in its own backlog); when the line is full, a client holding fewer places
 * takes one from the client holding most, so a newcomer is not refused while a flood holds it. argon2id
 * is memory-hard, so more in flight than cores only share the CPU caches (each runs slower, fewer
 * complete per second) and hold 19 MiB apiece, and an unbounded queue lets a flood of logins push
 * every login's latency up without end. A job beyond the bound is refused at once (hashingBusy).
 */
export class PasswordHasher {
  readonly queue: FairScheduler;
  /** A hash of a random password, verified against when the account is unknown so timing is equal. */
  private readonly decoy: Promise<string>;
  private readonly options: argon2.HashOptions;

  constructor({ concurrency = hashingConcurrency(), maxWaiting = defaultMaxWaiting(concurrency), cost = OWASP_HASH_COST }: HasherOptions = {}) {
    this.options = argon2Options(cost);
    this.queue = new FairScheduler({ concurrency, maxWaiting });
    // First in the queue, so it is ready before any verification that needs it.
    this.decoy = this.hash(`decoy-${Math.random()}`);
  }

  /** Hashes and verifications running now, and those waiting for a core. */
  get load(): { running: number; waiting: number } {
    const { running, waiting, backlogged } = this.queue.load;
    return { running, waiting: waiting + backlogged };
  }

  hash(password: string): Promise<string> {
    return this.run(() => argon2.hash(password, this.options));
  }

  /**
   * False, not an error, for a stored value that is not an argon2 hash; 503 when the queue is full,
   * or when `client` (the caller's address) already holds its share of the waiting line.
   */
  verify(hash: string, password: string, client?: string, abandoned?: AbortSignal): Promise<boolean> {
    return this.run(() => argon2.verify(hash, password).catch(() => false), client, abandoned);
  }

  /** Spends the same work as a real verification, for an unknown email or an account without password. */
  async verifyDecoy(password: string, client?: string, abandoned?: AbortSignal): Promise<false> {
    await this.verify(await this.decoy, password, client, abandoned);
    return false;
  }

  /** `abandoned`: the request's client is gone (the gateway gave up): a waiting job leaves the queue, its hash never computed. */
  private async run<T>(work: () => Promise<T>, client?: string, abandoned?: AbortSignal): Promise<T> {
    try {
      return await this.queue.run(work, { client, signal: abandoned });
    } catch (error) {
      // Nobody reads the answer of an abandoned request; 503 keeps it out of the error log.
      throw error instanceof QueueFullError || abandoned?.aborted ? hashingBusy(error) : error;
    }
  }
}
