import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inboxMigrationScripts, outboxMigrationScripts, type SqlExecutor } from '@school/messaging';

export const TEST_DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A throw-away schema holding the outbox and inbox tables, created by the same migrations as the services'. */
export class OutboxDb {
  private constructor(
    readonly schema: string,
    readonly pool: pg.Pool,
  ) {}

  static async create(): Promise<OutboxDb> {
    const schema = `msg_test_${randomBytes(4).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10 });
    const client = await pool.connect();
    try {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query('BEGIN');
      await client.query(`SET LOCAL search_path TO "${schema}"`);
      for (const script of [...outboxMigrationScripts(), ...inboxMigrationScripts()]) await client.query(script);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    return new OutboxDb(schema, pool);
  }

  /** Runs `work` in a transaction on its own connection; `tx` is what Outbox.record takes. */
  async transaction<T>(work: (tx: SqlExecutor, client: pg.PoolClient) => Promise<T>, { rollback = false } = {}): Promise<T> {
    const client = await this.pool.connect();
    const tx: SqlExecutor = { $executeRawUnsafe: async (query, ...values) => (await client.query(query, values)).rowCount ?? 0 };
    try {
      await client.query('BEGIN');
      const result = await work(tx, client);
      await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  async rows(): Promise<Array<{ id: string; type: string; attempts: number; sent_at: Date | null; parked_at: Date | null; last_error: string | null }>> {
    const { rows } = await this.pool.query(`SELECT id, type, attempts, sent_at, parked_at, last_error FROM "${this.schema}".outbox_events ORDER BY id`);
    return rows;
  }

  async drop(): Promise<void> {
    await this.pool.query(`DROP SCHEMA "${this.schema}" CASCADE`);
    await this.pool.end();
  }
}
