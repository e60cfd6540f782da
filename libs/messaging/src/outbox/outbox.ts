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

/**
 * Records events in the producing service's outbox table, inside the caller's transaction: the
 * event exists if and only if the business write commits. The relay publishes it afterwards.
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
    const body = EVENT_SCHEMAS[type].parse(payload);
    const id = uuidv7();
    await clientOf<SqlExecutor>(tx).$executeRawUnsafe(this.insert, id, type, JSON.stringify(body), currentTraceparent());
    return id;
  }
}

export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
