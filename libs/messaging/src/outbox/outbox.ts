import { clientOf, type Transaction } from '@school/service';
import { EVENT_SCHEMAS, type EventPayload, type EventType } from '@school/contracts';
import { currentTraceparent } from '@school/telemetry';
import { uuidv7 } from '@school/prisma';
import { OUTBOX_TABLE } from './outbox-schema.js';

/**
 * What `record` needs of the caller's transaction: any Prisma client or interactive-transaction
 * client has it (`prisma.$transaction(async (tx) => ...)`), whatever service generated it.
 */
export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/** One outbox row, ready to insert: validated payload (JSON), its id (the AMQP messageId) and trace context. */
export interface OutboxEntry {
  id: string;
  type: EventType;
  payload: string;
  traceparent: string | null;
}

/**
 * Records events in the producing service's outbox table, inside the caller's transaction: the
 * event exists if and only if the business write commits. The relay publishes it afterwards.
 * A repository whose business write is one statement inserts `entry()` in that same statement
 * instead (a CTE): atomic with no transaction to open, one round trip.
 */
export class Outbox {
  private readonly insert: string;

  /** `schema`: the service's own Postgres schema (contract §1), e.g. `feedback`. */
  constructor(schema: string) {
    this.insert = `INSERT INTO ${quoteIdent(schema)}.${quoteIdent(OUTBOX_TABLE)} (id, type, payload, traceparent) VALUES ($1::uuid, $2, $3::jsonb, $4)`;
  }

  /**
   * Validates the payload against the event's schema (a programming error throws and so rolls
   * the transaction back), stamps the active trace context and returns the event id, which
   * becomes the AMQP messageId.
   */
  async record<Type extends EventType>(tx: Transaction | SqlExecutor, type: Type, payload: EventPayload<Type>): Promise<string> {
    const { id, payload: body, traceparent } = this.entry(type, payload);
    await clientOf<SqlExecutor>(tx).$executeRawUnsafe(this.insert, id, type, body, traceparent);
    return id;
  }

  /** The row `record` inserts, for a caller inserting it itself: validated (a programming error throws), stamped, with its id. */
  entry<Type extends EventType>(type: Type, payload: EventPayload<Type>): OutboxEntry {
    return { id: uuidv7(), type, payload: JSON.stringify(EVENT_SCHEMAS[type].parse(payload)), traceparent: currentTraceparent() };
  }
}

export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
