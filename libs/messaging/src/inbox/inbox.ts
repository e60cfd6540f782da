import type { Transaction } from '@school/service';
import { clientOf } from '@school/service';
import type { ReceivedEvent } from '../events/event-decoder.js';
import { quoteIdent, type SqlExecutor } from '../outbox/outbox.js';
import { INBOX_RETENTION_DAYS, INBOX_TABLE } from './inbox-schema.js';

/** What the inbox needs of the service's UnitOfWork (`@school/service`). */
export interface TransactionRunner {
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

/**
 * The consumer's half of the outbox: each message's effects commit exactly once per message id.
 * The id is recorded in the consumer's own schema in the SAME unit of work as the effects, so the
 * record commits only if they did, and a redelivery (after a crash before the ack, or a second
 * replica's delivery) finds it and does nothing. A concurrent delivery of the same id waits on the
 * row's key, then finds it taken. The transport acks after `once` resolves.
 */
export class Inbox {
  private readonly insert: string;
  private readonly deleteOlder: string;

  /** `schema`: the consuming service's own Postgres schema (contract §1). */
  constructor(
    schema: string,
    private readonly unitOfWork: TransactionRunner,
  ) {
    const table = `${quoteIdent(schema)}.${quoteIdent(INBOX_TABLE)}`;
    this.insert = `INSERT INTO ${table} (message_id, event_type) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING`;
    this.deleteOlder = `DELETE FROM ${table} WHERE processed_at < now() - make_interval(days => $1)`;
  }

  /** Runs `effects` for a message not seen before, in one transaction with its inbox row; false for a duplicate (nothing ran). */
  async once(received: ReceivedEvent, effects: (tx: Transaction) => Promise<void>): Promise<boolean> {
    return this.unitOfWork.run(async (tx) => {
      const inserted = await clientOf<SqlExecutor>(tx).$executeRawUnsafe(this.insert, received.messageId, received.event.type);
      if (inserted === 0) return false;
      await effects(tx);
      return true;
    });
  }

  /** Forgets ids older than the retention; safe to run on every replica at once. */
  async prune(retentionDays: number = INBOX_RETENTION_DAYS): Promise<number> {
    return this.unitOfWork.run((tx) => Promise.resolve(clientOf<SqlExecutor>(tx).$executeRawUnsafe(this.deleteOlder, retentionDays)));
  }
}
