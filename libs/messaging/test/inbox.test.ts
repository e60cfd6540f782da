import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_TYPES } from '@school/contracts';
import { Inbox, INBOX_MIGRATIONS, type ReceivedEvent, type TransactionRunner } from '@school/messaging';
import type { Transaction } from '@school/service';
import { migrationDrift } from '@school/testing';
import { OutboxDb } from './support/outbox-db.js';

const libraryDir = join(import.meta.dirname, '..');
const servicesDir = join(libraryDir, '..', '..', 'services');

const received = (messageId: string): ReceivedEvent => ({
  messageId,
  event: { type: EVENT_TYPES.userErased, payload: { version: 1, userId: 'u1', erasedAt: '2026-11-28T10:00:00.000Z' } },
});

describe('Inbox (real Postgres)', () => {
  let db: OutboxDb;
  let inbox: Inbox;
  /** Rows an effect writes, in the same transaction as the inbox row. */
  const effect = (tx: Transaction, note: string) =>
    (tx as unknown as { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> }).$executeRawUnsafe(`INSERT INTO "${db.schema}".effects (note) VALUES ($1)`, note);
  const effects = async () => (await db.pool.query<{ note: string }>(`SELECT note FROM "${db.schema}".effects ORDER BY note`)).rows.map((row) => row.note);
  const recorded = async () =>
    (await db.pool.query<{ message_id: string }>(`SELECT message_id FROM "${db.schema}".processed_messages ORDER BY message_id`)).rows.map((row) => row.message_id);

  beforeEach(async () => {
    db = await OutboxDb.create();
    await db.pool.query(`CREATE TABLE "${db.schema}".effects (note text NOT NULL)`);
    const unitOfWork: TransactionRunner = { run: (work) => db.transaction((tx) => work(tx as unknown as Transaction)) };
    inbox = new Inbox(db.schema, unitOfWork);
  });

  afterEach(() => db.drop());

  it('runs a message once: a redelivery of the same id runs nothing and answers false', async () => {
    expect(await inbox.once(received('m1'), (tx) => effect(tx, 'first').then(() => undefined))).toBe(true);
    expect(await inbox.once(received('m1'), (tx) => effect(tx, 'again').then(() => undefined))).toBe(false);
    expect(await effects()).toEqual(['first']);
    expect(await recorded()).toEqual(['m1']);
  });

  it('records nothing when the effects fail, so the redelivery runs them', async () => {
    await expect(
      inbox.once(received('m2'), async (tx) => {
        await effect(tx, 'lost');
        throw new Error('effects failed');
      }),
    ).rejects.toThrow('effects failed');
    expect(await recorded()).toEqual([]);
    expect(await inbox.once(received('m2'), (tx) => effect(tx, 'redelivered').then(() => undefined))).toBe(true);
    expect(await effects()).toEqual(['redelivered']);
  });

  it('runs the effects once when two replicas receive the same id at once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = inbox.once(received('m3'), async (tx) => {
      await effect(tx, 'one');
      await held;
    });
    // The second waits on the first's uncommitted row, then finds it committed.
    const second = inbox.once(received('m3'), (tx) => effect(tx, 'two').then(() => undefined));
    release();
    expect((await Promise.all([first, second])).sort()).toEqual([false, true]);
    expect(await effects()).toHaveLength(1);
  });

  it('forgets ids past the retention only', async () => {
    await inbox.once(received('old'), async () => undefined);
    await inbox.once(received('new'), async () => undefined);
    await db.pool.query(`UPDATE "${db.schema}".processed_messages SET processed_at = now() - interval '31 days' WHERE message_id = 'old'`);
    expect(await inbox.prune(30)).toBe(1);
    expect(await recorded()).toEqual(['new']);
  });
});

describe('the inbox migrations of this library', () => {
  it('build exactly the table prisma/inbox.prisma describes', async () => {
    expect(await migrationDrift({ migrationsDir: fileURLToPath(INBOX_MIGRATIONS), prismaSchemaPath: join(libraryDir, 'prisma', 'inbox.prisma') })).toBe('');
  });

  it('are applied by every service that consumes through the Inbox', async () => {
    const names = (await readdir(servicesDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const consumers: string[] = [];
    for (const name of names) {
      const src = join(servicesDir, name, 'src');
      const files = (await readdir(src, { recursive: true })).filter((file) => file.endsWith('.module.ts'));
      const sources = await Promise.all(files.map((file) => readFile(join(src, file), 'utf8')));
      if (!sources.some((source) => source.includes('InboxModule'))) continue;
      consumers.push(name);
      const migrations = await readFile(join(src, 'migrations.ts'), 'utf8');
      expect({ name, appliesInbox: /MIGRATIONS: ServiceMigrations = \[[^\]]*INBOX_MIGRATIONS/.test(migrations) }).toEqual({ name, appliesInbox: true });
    }
    expect(consumers).toEqual(expect.arrayContaining(['notifier', 'reference-data']));
  });
});
