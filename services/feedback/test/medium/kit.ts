import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { OutboxWithoutRelayModule } from '@school/messaging/testing';
import { DatabaseSchema } from '@school/service';
import { useCaseContext } from '@school/service/testing';
import { migratedTestSchema } from '@school/testing';
import { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export interface OutboxRow {
  type: string;
  payload: Record<string, unknown>;
}

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export interface FeedbackMedium {
  /** The context's client, for reading what the use cases wrote. */
  prisma: PrismaClient;
  get<T>(type: abstract new (...args: never[]) => T): T;
  outboxRows(): Promise<OutboxRow[]>;
  /** Empties the submissions and the outbox. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without
 * the controller); the schema's `Outbox` and `AuditRecorder` are provided unless `providers` gives its own.
 */
export async function feedbackMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<FeedbackMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  try {
    const context = await useCaseContext({
      Prisma: PrismaClient,
      databaseUrl: db.databaseUrl,
      schema: db.schema,
      imports: [OutboxWithoutRelayModule.forRoot()],
      providers,
    });
    const prisma = context.get(PrismaClient);
    const schema = Prisma.raw(context.get(DatabaseSchema).sql);
    return {
      prisma,
      get: (type) => context.get(type),
      outboxRows: () => prisma.$queryRaw<OutboxRow[]>`SELECT type, payload FROM ${schema}.outbox_events ORDER BY created_at, id`,
      async clear() {
        await prisma.$executeRaw`TRUNCATE ${schema}.feedback_submissions, ${schema}.outbox_events`;
      },
      async close() {
        await context.close();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
