import { Logger } from '@nestjs/common';
import { withDeadline } from '@school/async';
import type { Redis } from 'ioredis';

/** Spec §4.6 rule 1, §8: list reads are cached for one hour. */
export const LIST_CACHE_TTL_SECONDS = 3600;
/** A cache answer slower than this counts as Redis being away: the database answers instead. */
const REDIS_DEADLINE_MS = 250;
/** While a version bump could not be made, it is retried this often. */
const BUMP_RETRY_MS = 1_000;
/** Entries this replica has read lately, kept parsed (their key names the version: never stale). */
const LOCAL_ENTRIES = 256;
/** A parsed entry is held at most this long, so it outlives its Redis copy by no more than that. */
const LOCAL_TTL_MS = 60_000;

/**
 * A list cache (`name`: academic sessions, geography), in Redis so every replica shares it. Every key holds the
 * current value of a version key; a write bumps the version (INCR), so every replica's next read
 * misses and older entries simply expire: no KEYS/SCAN sweep (lessons item 15).
 *
 * Redis being away never fails a request: a read is answered from the database, a write
 * succeeds, and the outage is logged once (and its end once). A bump that could not be made is
 * retried until it is, so entries written before the outage are not served after it.
 */
export class ListCache {
  private readonly logger: Logger;
  private readonly versionKey: string;
  /** Key -> parsed value and when it stops being held. */
  private readonly local = new Map<string, { value: unknown; until: number }>();
  private down = false;
  private bumpPending = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly name: string,
  ) {
    this.logger = new Logger(`ListCache(${name})`);
    this.versionKey = `${prefix}${name}:list:version`;
  }

  /** The cached answer to `query` (normalised by the caller), or `load()` stored for next time. */
  async read<T>(query: object, load: () => Promise<T>): Promise<T> {
    const key = await this.call(async () => {
      if (this.bumpPending) await this.bump();
      return this.entryKey(query);
    });
    if (key !== undefined) {
      const held = this.local.get(key);
      if (held && held.until > Date.now()) return held.value as T;
      const cached = await this.call(() => this.redis.get(key));
      if (cached) return this.keep(key, JSON.parse(cached) as T);
    }
    const value = await load();
    if (key !== undefined) await this.call(() => this.redis.set(key, JSON.stringify(value), 'EX', LIST_CACHE_TTL_SECONDS));
    return value;
  }

  /** After a successful write has committed: every replica's next read misses. */
  async invalidate(): Promise<void> {
    this.bumpPending = true;
    if ((await this.call(() => this.bump())) === undefined) this.scheduleRetry();
  }

  /**
   * The version is read from Redis on every read (a write on another replica bumps it), so a key
   * held here is current for as long as the version it names; only the entry's own GET and parse are saved.
   * Callers treat the value as read-only: it is shared by the requests that read it.
   */
  private keep<T>(key: string, value: T): T {
    if (this.local.size >= LOCAL_ENTRIES) this.local.delete(this.local.keys().next().value!);
    this.local.delete(key);
    this.local.set(key, { value, until: Date.now() + LOCAL_TTL_MS });
    return value;
  }

  close(): void {
    clearTimeout(this.retryTimer);
  }

  private async bump(): Promise<void> {
    await this.redis.incr(this.versionKey);
    this.bumpPending = false;
  }

  private async entryKey(query: object): Promise<string> {
    const version = (await this.redis.get(this.versionKey)) ?? '0';
    return `${this.prefix}${this.name}:list:v${version}:${JSON.stringify(query)}`;
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.bumpPending) return;
      void this.call(() => this.bump()).then((done) => done === undefined && this.scheduleRetry());
    }, BUMP_RETRY_MS);
    this.retryTimer.unref();
  }

  /** The command's answer, or undefined when Redis cannot give one (logged once per outage). */
  private async call<T>(command: () => Promise<T>): Promise<T | undefined> {
    try {
      const answer = await withDeadline(command, REDIS_DEADLINE_MS, 'Redis cache');
      if (this.down) {
        this.down = false;
        this.logger.log(`Redis answers again: ${this.name} lists are cached again`);
      }
      return answer ?? (null as T);
    } catch (error) {
      if (!this.down) {
        this.down = true;
        this.logger.warn(`Redis cache unavailable, ${this.name} lists are read from the database: ${(error as Error).message}`);
      }
      return undefined;
    }
  }
}
