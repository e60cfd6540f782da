import { clientOf, type IsolationLevel, type Transaction, type TransactionalClient, UnitOfWork } from './unit-of-work.js';

/** A client whose transactions fail with the given errors, in turn, before they succeed. */
class ScriptedClient implements TransactionalClient {
  readonly opened: { isolationLevel?: IsolationLevel | undefined }[] = [];
  readonly txClient = { $executeRawUnsafe: async () => 1 };

  constructor(private readonly failures: unknown[] = []) {}

  async $transaction<R>(work: (tx: unknown) => Promise<R>, options?: { isolationLevel?: IsolationLevel }): Promise<R> {
    this.opened.push({ isolationLevel: options?.isolationLevel });
    const result = await work(this.txClient);
    if (this.failures.length > 0) throw this.failures.shift();
    return result;
  }
}

const serializationFailure = Object.assign(new Error('could not serialize access'), { code: '40001' });
const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('UnitOfWork', () => {
  it('runs the work in one transaction and answers its result', async () => {
    const client = new ScriptedClient();
    let seen: Transaction | undefined;
    const result = await new UnitOfWork(client).run(async (tx) => {
      seen = tx;
      return 'done';
    });
    expect(result).toBe('done');
    expect(client.opened).toEqual([{ isolationLevel: undefined }]);
    expect(clientOf<typeof client.txClient>(seen!)).toBe(client.txClient);
  });

  it('opens the transaction at the isolation level asked for', async () => {
    const client = new ScriptedClient();
    await new UnitOfWork(client).run(async () => undefined, { isolationLevel: 'Serializable' });
    expect(client.opened).toEqual([{ isolationLevel: 'Serializable' }]);
  });

  it('does not run the work again by default, even after a serialization failure', async () => {
    const client = new ScriptedClient([serializationFailure]);
    await expect(new UnitOfWork(client).run(async () => undefined)).rejects.toBe(serializationFailure);
    expect(client.opened).toHaveLength(1);
  });

  it('runs the work again after serialization failures and deadlocks, up to the retries allowed', async () => {
    const client = new ScriptedClient([serializationFailure, deadlock]);
    let runs = 0;
    const result = await new UnitOfWork(client).run(async () => (runs += 1), { serializationRetries: 2, isolationLevel: 'Serializable' });
    expect(result).toBe(3);
    expect(client.opened).toEqual(Array.from({ length: 3 }, () => ({ isolationLevel: 'Serializable' })));
  });

  it('gives up with the last failure once the retries are spent', async () => {
    const client = new ScriptedClient([serializationFailure, serializationFailure, deadlock]);
    await expect(new UnitOfWork(client).run(async () => undefined, { serializationRetries: 2 })).rejects.toBe(deadlock);
    expect(client.opened).toHaveLength(3);
  });

  it('never runs the work again after any other failure', async () => {
    const other = Object.assign(new Error('duplicate key'), { code: '23505' });
    const client = new ScriptedClient([other]);
    await expect(new UnitOfWork(client).run(async () => undefined, { serializationRetries: 5 })).rejects.toBe(other);
    expect(client.opened).toHaveLength(1);
  });
});

describe('clientOf', () => {
  it('is the pool outside a transaction', () => {
    const pool = { name: 'pool' };
    expect(clientOf<typeof pool>(pool)).toBe(pool);
  });

  it('opens every transaction with the configured wait for a connection and timeout', async () => {
    const seen: unknown[] = [];
    const client: TransactionalClient = {
      $transaction: async (work, options) => {
        seen.push(options);
        return work({});
      },
    };
    await new UnitOfWork(client, { maxWaitMs: 1_500, timeoutMs: 4_000 }).run(async () => undefined, { isolationLevel: 'Serializable' });
    expect(seen).toEqual([{ isolationLevel: 'Serializable', maxWait: 1_500, timeout: 4_000 }]);
  });
});
