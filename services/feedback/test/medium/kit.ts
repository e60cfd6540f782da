import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { INBOX_MIGRATIONS, Outbox, OUTBOX_MIGRATIONS } from '@school/messaging';
import { DatabaseSchema } from '@school/service';
import { type MediumWorld, mediumWorld } from '@school/service/testing';
import { migratedTestSchema } from '@school/testing';
import { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export interface OutboxRow {
  type: string;
  payload: Record<string, unknown>;
}

/** One medium suite's world, with the outbox the use cases write to. */
export interface FeedbackMedium extends MediumWorld<PrismaClient> {
  outboxRows(): Promise<OutboxRow[]>;
  /** Empties the submissions and the outbox. */
  clear(): Promise<void>;
}

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without
 * the controller); the schema's `Outbox` is provided unless `providers` gives one of its own.
 */
export async function feedbackMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<FeedbackMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  const world = await mediumWorld(db, {
    Prisma: PrismaClient,
    providers: [{ provide: Outbox, useFactory: (schema: DatabaseSchema) => new Outbox(schema.name), inject: [DatabaseSchema] }, ...providers],
  });
  const schema = Prisma.raw(world.get(DatabaseSchema).sql);
  return {
    ...world,
    outboxRows: () => world.prisma.$queryRaw<OutboxRow[]>`SELECT type, payload FROM ${schema}.outbox_events ORDER BY created_at, id`,
    async clear() {
      await world.prisma.$executeRaw`TRUNCATE ${schema}.feedback_submissions, ${schema}.outbox_events`;
    },
  };
}
