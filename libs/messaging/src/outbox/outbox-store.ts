import type pg from 'pg';
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

export interface FailedPublish {
  id: string;
  error: string;
  retryInMs: number;
}

const ERROR_MAX_LENGTH = 1000;

/** The relay's SQL on one schema's outbox table; every statement runs on the client it is given. */
export class OutboxStore {
  private readonly table: string;

  constructor(schema: string) {
    this.table = `${quoteIdent(schema)}.${quoteIdent(OUTBOX_TABLE)}`;
  }

  /**
   * Locks up to `limit` due rows for this transaction; rows locked by another relay replica are
   * skipped, not waited for, so replicas share the work and never publish the same row at once.
   */
  async claimDue(client: pg.ClientBase, limit: number): Promise<PendingEvent[]> {
    const { rows } = await client.query<PendingEvent>(
      `SELECT id, type, payload, traceparent, attempts, created_at AS "createdAt"
         FROM ${this.table}
        WHERE sent_at IS NULL AND available_at <= now()
        ORDER BY available_at, id
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows;
  }

  async markSent(client: pg.ClientBase, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await client.query(`UPDATE ${this.table} SET sent_at = now(), last_error = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }

  async markFailed(client: pg.ClientBase, failures: FailedPublish[]): Promise<void> {
    if (failures.length === 0) return;
    await client.query(
      `UPDATE ${this.table} AS o
          SET attempts = o.attempts + 1,
              last_error = f.error,
              available_at = now() + f.retry_ms * interval '1 millisecond'
         FROM unnest($1::uuid[], $2::text[], $3::int[]) AS f(id, error, retry_ms)
        WHERE o.id = f.id`,
      [failures.map((f) => f.id), failures.map((f) => f.error.slice(0, ERROR_MAX_LENGTH)), failures.map((f) => f.retryInMs)],
    );
  }

  /** When the earliest pending row becomes due (null when nothing is pending). */
  async nextDueAt(client: pg.ClientBase): Promise<Date | null> {
    const { rows } = await client.query<{ next: Date | null }>(`SELECT min(available_at) AS next FROM ${this.table} WHERE sent_at IS NULL`);
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
