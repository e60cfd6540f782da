import type pg from 'pg';
import { FORGOTTEN_ONCE_PUBLISHED } from '@school/contracts';
import { OUTBOX_TABLE } from './outbox-schema.js';
import { quoteIdent } from './outbox.js';

export interface PendingEvent {
  id: string;
  type: string;
  payload: unknown;
  traceparent: string | null;
  attempts: number;
  createdAt: Date;
}

export interface ParkedEvent {
  id: string;
  type: string;
  attempts: number;
  lastError: string;
}

export interface FailedPublish {
  id: string;
  error: string;
  retryInMs: number;
}

export interface OutboxBacklog {
  /** Rows waiting for the broker's confirm (parked rows excluded). */
  pending: number;
  /** Age of the oldest of them in seconds (0 when none). */
  oldestPendingAgeSeconds: number;
  parked: number;
}

const ERROR_MAX_LENGTH = 1000;
/** The backlog is read when Prometheus scrapes: a busy database must not hold the statement long. */
const BACKLOG_STATEMENT_TIMEOUT_MS = 1_000;

/** The relay's SQL on one schema's outbox table; every statement runs on the client it is given. */
export class OutboxStore {
  private readonly table: string;

  constructor(schema: string) {
    this.table = `${quoteIdent(schema)}.${quoteIdent(OUTBOX_TABLE)}`;
  }

  /**
   * Claims up to `limit` due rows in one short statement (no transaction left open): their
   * `available_at` moves `leaseMs` ahead, so no relay replica takes them again meanwhile; rows
   * another replica is claiming at the same moment are skipped, not waited for. A relay that dies
   * before marking them leaves them to be claimed again when the lease ends (at least once).
   */
  async claimDue(client: pg.ClientBase, limit: number, leaseMs: number): Promise<PendingEvent[]> {
    const { rows } = await client.query<PendingEvent>(
      `UPDATE ${this.table} AS o
          SET available_at = now() + $2 * interval '1 millisecond'
         FROM (SELECT id FROM ${this.table}
                WHERE sent_at IS NULL AND parked_at IS NULL AND available_at <= now()
                ORDER BY available_at, id
                LIMIT $1
                FOR UPDATE SKIP LOCKED) AS due
        WHERE o.id = due.id
        RETURNING o.id, o.type, o.payload, o.traceparent, o.attempts, o.created_at AS "createdAt"`,
      [limit, leaseMs],
    );
    // Ids are UUIDv7: their order is the order the events were recorded in.
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Rows the broker confirmed: marked sent, except those of a type FORGOTTEN_ONCE_PUBLISHED, which
   * are deleted (they name a person nothing may keep once the message left), in the same statement.
   */
  async markSent(client: pg.ClientBase, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await client.query(
      `WITH forgotten AS (DELETE FROM ${this.table} WHERE id = ANY($1::uuid[]) AND type = ANY($2::text[]))
       UPDATE ${this.table} SET sent_at = now(), last_error = NULL WHERE id = ANY($1::uuid[]) AND sent_at IS NULL AND type <> ALL($2::text[])`,
      [ids, FORGOTTEN_ONCE_PUBLISHED],
    );
  }

  /**
   * Counts a failed attempt per row: it is due again after its retry delay, or parked (left alone,
   * reason kept) once it reached `maxAttempts`. Returns the rows parked now.
   */
  async markFailed(client: pg.ClientBase, failures: FailedPublish[], maxAttempts: number): Promise<ParkedEvent[]> {
    if (failures.length === 0) return [];
    const { rows } = await client.query<ParkedEvent & { parked: boolean }>(
      `UPDATE ${this.table} AS o
          SET attempts = o.attempts + 1,
              last_error = f.error,
              available_at = now() + f.retry_ms * interval '1 millisecond',
              parked_at = CASE WHEN o.attempts + 1 >= $4 THEN now() END
         FROM unnest($1::uuid[], $2::text[], $3::int[]) AS f(id, error, retry_ms)
        WHERE o.id = f.id AND o.sent_at IS NULL
        RETURNING o.id, o.type, o.attempts, o.last_error AS "lastError", o.parked_at IS NOT NULL AS parked`,
      [failures.map((f) => f.id), failures.map((f) => f.error.slice(0, ERROR_MAX_LENGTH)), failures.map((f) => f.retryInMs), maxAttempts],
    );
    return rows.filter((row) => row.parked).map(({ parked: _parked, ...row }) => row);
  }

  /** What is waiting to be published (the relay's metrics); unsent rows only, through the (sent_at, ...) index. */
  async backlog(client: pg.ClientBase): Promise<OutboxBacklog> {
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL statement_timeout = ${BACKLOG_STATEMENT_TIMEOUT_MS}`);
      const { rows } = await client.query<OutboxBacklog>(
        `SELECT count(*) FILTER (WHERE parked_at IS NULL)::int AS pending,
                COALESCE(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE parked_at IS NULL)), 0)::float8 AS "oldestPendingAgeSeconds",
                count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked
           FROM ${this.table} WHERE sent_at IS NULL`,
      );
      return rows[0] as OutboxBacklog;
    } finally {
      await client.query('ROLLBACK');
    }
  }

  /** When the earliest pending row becomes due (null when nothing is pending). */
  async nextDueAt(client: pg.ClientBase): Promise<Date | null> {
    const { rows } = await client.query<{ next: Date | null }>(`SELECT min(available_at) AS next FROM ${this.table} WHERE sent_at IS NULL AND parked_at IS NULL`);
    return rows[0]?.next ?? null;
  }

  /** Deletes up to `limit` rows sent before `olderThanMs` ago; returns how many. */
  async pruneSent(client: pg.ClientBase, olderThanMs: number, limit: number): Promise<number> {
    const result = await client.query(
      `DELETE FROM ${this.table}
        WHERE id IN (SELECT id FROM ${this.table}
                      WHERE sent_at < now() - $1 * interval '1 millisecond'
                      LIMIT $2)`,
      [olderThanMs, limit],
    );
    return result.rowCount ?? 0;
  }
}
