import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { OutboxWithoutRelayModule } from '@school/messaging/testing';
import { DatabaseSchema } from '@school/service';
import { mediumWorld, type MediumWorld } from '@school/service/testing';
import { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export interface OutboxRow {
  type: string;
  payload: Record<string, unknown>;
}

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export interface FeedbackMedium extends MediumWorld<PrismaClient> {
  outboxRows(): Promise<OutboxRow[]>;
  /** Empties the submissions and the outbox. */
  clear(): Promise<void>;
}

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without
 * the controller); the schema's `Outbox` and `AuditRecorder` are provided unless `providers` gives its own.
 */
export async function feedbackMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<FeedbackMedium> {
  const world = await mediumWorld<PrismaClient>({
    serviceDir,
    sharedMigrations: [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS],
    prefix,
    Prisma: PrismaClient,
    imports: [OutboxWithoutRelayModule.forRoot()],
    providers,
  });
  const { prisma } = world;
  const schema = Prisma.raw(world.get(DatabaseSchema).sql);
  return {
    ...world,
    outboxRows: () => prisma.$queryRaw<OutboxRow[]>`SELECT type, payload FROM ${schema}.outbox_events ORDER BY created_at, id`,
    async clear() {
      await prisma.$executeRaw`TRUNCATE ${schema}.feedback_submissions, ${schema}.outbox_events`;
    },
  };
}
