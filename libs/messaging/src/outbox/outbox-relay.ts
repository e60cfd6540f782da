import pg from 'pg';
import type { OutgoingEvent } from '../amqp/event-publisher.js';
import { backoffDelay, sleep, type BackoffOptions } from '../backoff.js';
import { contextFromTraceparent, currentTraceparent, inSpan, SpanKind } from '@school/telemetry';
import type { MessagingLogger } from '../logger.js';
import { outboxChannel } from './outbox-schema.js';
import { OutboxStore, type FailedPublish, type OutboxBacklog, type PendingEvent } from './outbox-store.js';

/** Where the relay publishes: resolves once the broker confirmed the message. */
export interface ConfirmedPublisher {
  publish(event: OutgoingEvent): Promise<void>;
}

/** The broker connection's state, so the relay leaves rows alone while it is down. */
export interface BrokerLink {
  isConnected(): boolean;
  onConnect(listener: () => void): () => void;
}

export interface OutboxRelayOptions {
  databaseUrl: string;
  /** The producing service's schema, holding `outbox_events`. */
  schema: string;
  publisher: ConfirmedPublisher;
  broker: BrokerLink;
  logger: MessagingLogger;
  /** Rows claimed and published per batch. */
  batchSize?: number;
  /**
   * How long a claimed row is reserved for this relay: beyond the publisher's confirm timeout, so
   * only a relay that died re-sends (after this long).
   */
  claimLeaseMs?: number;
  /** A row whose publish failed this many times is parked with its reason (left for an operator). */
  maxAttempts?: number;
  /** Safety net only: NOTIFY wakes the relay at commit; this catches anything missed. */
  pollIntervalMs?: number;
  /** Delay before a row whose publish failed is tried again, growing with its attempts. */
  retry?: Partial<BackoffOptions>;
  /** Sent rows are kept this long (for inspection), then deleted. */
  retentionMs?: number;
  pruneIntervalMs?: number;
}

export interface RelayStats {
  published: number;
  failed: number;
  parked: number;
}

const DEFAULTS = {
  batchSize: 100,
  claimLeaseMs: 30_000,
  /** With the retry backoff below (1 s doubling to 60 s), about 15 minutes of failures. */
  maxAttempts: 20,
  pollIntervalMs: 5_000,
  retry: { initialMs: 1_000, maxMs: 60_000 },
  retentionMs: 7 * 24 * 3600_000,
  pruneIntervalMs: 3600_000,
};
const PRUNE_BATCH = 1_000;
const LISTEN_RETRY: BackoffOptions = { initialMs: 500, maxMs: 15_000 };

/**
 * Publishes a service's outbox rows to RabbitMQ and marks them sent once the broker confirmed
 * them (at least once; the notifier's inbox removes duplicates).
 *
 * - Wakes at once when a transaction that recorded events commits (LISTEN on the channel the
 *   table's insert trigger NOTIFYs), when the broker (re)connects, when a failed row becomes due,
 *   and on a slow safety poll; drains in batches until nothing is due.
 * - Claims a batch in one short statement (`FOR UPDATE SKIP LOCKED`, `available_at` pushed one lease
 *   ahead), publishes it and waits for the confirms holding no transaction nor connection, then
 *   marks the outcome in a second short statement. Several replicas share the table; a relay that
 *   dies between publishing and marking leaves its rows to be re-sent when the lease ends, which
 *   the consumers' inbox absorbs (at least once).
 * - A row whose publish fails (no confirm, nack, timeout, no queue bound) gets `attempts + 1`, its
 *   error and an `available_at` pushed back by an exponential backoff; after `maxAttempts` it is
 *   parked (`parked_at`, reason in `last_error`) and no longer tried. While the broker is down no
 *   row is touched: business writes go on and events wait in the table.
 * - Prunes rows sent longer ago than the retention period.
 * - `stop()` finishes the batch in flight (publish, confirm, mark) before closing its pool.
 */
export class OutboxRelay {
  readonly stats: RelayStats = { published: 0, failed: 0, parked: 0 };
  private readonly pool: pg.Pool;
  private readonly store: OutboxStore;
  private readonly settings: typeof DEFAULTS;
  private readonly stopping = new AbortController();
  private listener: pg.Client | undefined;
  private listenFailures = 0;
  private draining: Promise<void> | undefined;
  private wakeAgain = false;
  /** Rows may wait with a later `available_at` than the due timer knows (a failed publish, or a start). */
  private pushedBack = true;
  private drainFailures = 0;
  private dueTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<void> | undefined;
  private unsubscribeBroker: (() => void) | undefined;
  private listening: Promise<void> | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.settings = {
      batchSize: options.batchSize ?? DEFAULTS.batchSize,
      claimLeaseMs: options.claimLeaseMs ?? DEFAULTS.claimLeaseMs,
      maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      retry: { ...DEFAULTS.retry, ...options.retry },
      retentionMs: options.retentionMs ?? DEFAULTS.retentionMs,
      pruneIntervalMs: options.pruneIntervalMs ?? DEFAULTS.pruneIntervalMs,
    };
    this.store = new OutboxStore(options.schema);
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2, application_name: `outbox-relay:${options.schema}` });
    this.pool.on('error', (error) => options.logger.warn({ err: error }, 'outbox relay: idle database connection failed'));
  }

  start(): void {
    this.unsubscribeBroker = this.options.broker.onConnect(() => this.wake());
    this.listening = this.listen();
    this.pollTimer = setInterval(() => this.wake(), this.settings.pollIntervalMs);
    this.pruneTimer = setInterval(() => void this.prune(), this.settings.pruneIntervalMs);
    this.wake();
    void this.prune();
  }

  /** Readiness: the relay's database pool answers. */
  async check(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** Rows waiting to be published and parked ones, with the age of the oldest waiting one. */
  backlog(): Promise<OutboxBacklog> {
    return this.withClient((client) => this.store.backlog(client));
  }

  /** Asks for a drain now; coalesces with one already running. */
  wake(): void {
    if (this.stopping.signal.aborted) return;
    if (this.draining) {
      this.wakeAgain = true;
      return;
    }
    this.wakeAgain = false;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.wakeAgain) this.wake();
    });
  }

  /** Stops waking, waits for the batch in flight (publishes confirmed and marked), closes the pool. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    this.unsubscribeBroker?.();
    clearInterval(this.pollTimer);
    clearInterval(this.pruneTimer);
    clearTimeout(this.dueTimer);
    await this.listening;
    await this.listener?.end().catch(() => undefined);
    await this.draining;
    await this.pruning;
    await this.pool.end();
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopping.signal.aborted && this.options.broker.isConnected()) {
        const claimed = await this.relayBatch();
        if (claimed < this.settings.batchSize) break;
      }
      this.drainFailures = 0;
      // Only a failure pushes a row back (or rows left by an earlier run, before the first drain):
      // a drain that failed nothing leaves the due timer as it was, and costs no query for it.
      if (this.pushedBack) await this.scheduleNextDue();
    } catch (error) {
      this.drainFailures += 1;
      this.pushedBack = true;
      const delay = backoffDelay(this.drainFailures - 1, this.settings.retry);
      this.options.logger.error({ err: error, retryInMs: delay }, 'outbox relay: drain failed');
      this.setDueTimer(delay);
    }
  }

  private async relayBatch(): Promise<number> {
    const rows = await this.withClient((client) => this.store.claimDue(client, this.settings.batchSize, this.settings.claimLeaseMs));
    if (rows.length === 0) return 0;
    const outcomes = await Promise.allSettled(rows.map((row) => this.publish(row)));
    const sent: string[] = [];
    const failed: FailedPublish[] = [];
    outcomes.forEach((outcome, index) => {
      const row = rows[index] as PendingEvent;
      if (outcome.status === 'fulfilled') sent.push(row.id);
      else failed.push({ id: row.id, error: errorText(outcome.reason), retryInMs: backoffDelay(row.attempts, this.settings.retry) });
    });
    const parked = await this.withClient(async (client) => {
      await this.store.markSent(client, sent);
      return this.store.markFailed(client, failed, this.settings.maxAttempts);
    });
    if (failed.length > 0) this.pushedBack = true;
    this.stats.published += sent.length;
    this.stats.failed += failed.length;
    this.stats.parked += parked.length;
    const { logger, schema } = this.options;
    if (failed.length > parked.length) {
      logger.warn({ schema, failed: failed.length - parked.length, sent: sent.length, error: failed[0]?.error }, 'outbox relay: publish not confirmed; rows will be retried');
    }
    for (const row of parked) {
      logger.error({ schema, id: row.id, type: row.type, attempts: row.attempts, error: row.lastError }, 'outbox relay: event parked after its last failed attempt');
    }
    return rows.length;
  }

  /**
   * Publishes one row in a producer span continuing the trace of the transaction that recorded it;
   * the message carries that span's `traceparent`, so the consumer's span hangs below the publish.
   */
  private publish(row: PendingEvent): Promise<void> {
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'publish',
      'messaging.message.id': row.id,
      'messaging.rabbitmq.destination.routing_key': row.type,
    };
    return inSpan(`publish ${row.type}`, { kind: SpanKind.PRODUCER, parent: contextFromTraceparent(row.traceparent), attributes }, () =>
      this.options.publisher.publish(toOutgoing(row, currentTraceparent())),
    );
  }

  /** Rows pushed back after a failure are due later: wake exactly then rather than at the next poll. */
  private async scheduleNextDue(): Promise<void> {
    if (this.stopping.signal.aborted || !this.options.broker.isConnected()) return;
    this.pushedBack = false;
    const next = await this.withClient((client) => this.store.nextDueAt(client));
    clearTimeout(this.dueTimer);
    if (next) this.setDueTimer(Math.max(0, next.getTime() - Date.now()));
  }

  private setDueTimer(delayMs: number): void {
    if (this.stopping.signal.aborted || delayMs >= this.settings.pollIntervalMs) return;
    clearTimeout(this.dueTimer);
    this.dueTimer = setTimeout(() => {
      // The drain this starts looks for the next row due after this one.
      this.pushedBack = true;
      this.wake();
    }, delayMs + 5);
  }

  /** LISTEN on a dedicated connection, re-established with backoff; the poll covers the gaps. */
  private async listen(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const client = new pg.Client({ connectionString: this.options.databaseUrl });
      const lost = new Promise<unknown>((resolve) => {
        client.on('error', resolve);
        client.on('end', () => resolve(new Error('connection ended')));
      });
      try {
        await client.connect();
        client.on('notification', () => this.wake());
        await client.query(`LISTEN "${outboxChannel(this.options.schema).replace(/"/g, '""')}"`);
        this.listener = client;
        this.listenFailures = 0;
        // Anything committed while we were not listening is picked up now.
        this.wake();
        const reason = await Promise.race([lost, abortion(this.stopping.signal)]);
        if (this.stopping.signal.aborted) return;
        this.options.logger.warn({ err: reason }, 'outbox relay: LISTEN connection lost; reconnecting');
      } catch (error) {
        this.listenFailures += 1;
        if (this.listenFailures === 1) this.options.logger.warn({ err: error }, 'outbox relay: cannot LISTEN; relying on the poll until it can');
      }
      this.listener = undefined;
      await client.end().catch(() => undefined);
      await sleep(backoffDelay(this.listenFailures, LISTEN_RETRY), this.stopping.signal);
    }
  }

  private async prune(): Promise<void> {
    if (this.pruning || this.stopping.signal.aborted) return;
    this.pruning = (async () => {
      try {
        let deleted = 0;
        let batch: number;
        do {
          batch = await this.withClient((client) => this.store.pruneSent(client, this.settings.retentionMs, PRUNE_BATCH));
          deleted += batch;
        } while (batch === PRUNE_BATCH && !this.stopping.signal.aborted);
        if (deleted > 0) this.options.logger.info({ schema: this.options.schema, deleted }, 'outbox relay: pruned sent rows');
      } catch (error) {
        this.options.logger.warn({ err: error }, 'outbox relay: prune failed');
      } finally {
        this.pruning = undefined;
      }
    })();
    await this.pruning;
  }

  private async withClient<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // pg-pool drops its error listener from a checked-out client, and pg emits a dropped socket as
    // an 'error' event even when the query in flight also fails: unheard, it ends the process.
    let lost: Error | undefined;
    const onError = (error: Error) => (lost = error);
    client.on('error', onError);
    try {
      return await work(client);
    } finally {
      client.removeListener('error', onError);
      client.release(lost);
    }
  }
}

function toOutgoing(row: PendingEvent, traceparent: string | null): OutgoingEvent {
  return {
    id: row.id,
    type: row.type,
    body: Buffer.from(JSON.stringify(row.payload)),
    traceparent,
    occurredAt: row.createdAt,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function abortion(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
