import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { parseConfig } from '@school/config';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { OutboxWithoutRelayModule } from '@school/messaging/testing';
import { useCaseContext } from '@school/service/testing';
import { migratedTestSchema } from '@school/testing';
import { referenceDataEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { ListCacheModule } from '../../src/list-cache/list-cache.module.js';

const serviceDir = join(import.meta.dirname, '..', '..');

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export interface ReferenceDataMedium {
  /** The context's client, for arranging rows and reading what the use cases wrote. */
  prisma: PrismaClient;
  get<T>(type: abstract new (...args: never[]) => T): T;
  close(): Promise<void>;
}

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without the
 * controller). Also provided, as the app provides them: the outbox and the audit recorder of the
 * schema, and the list caches on Redis under a key prefix of the suite's own.
 */
export async function referenceDataMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<ReferenceDataMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [INBOX_MIGRATIONS, OUTBOX_MIGRATIONS]);
  try {
    const config = parseConfig(referenceDataEnv, {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: db.databaseUrl,
      CACHE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    });
    const context = await useCaseContext({
      Prisma: PrismaClient,
      databaseUrl: db.databaseUrl,
      schema: db.schema,
      config,
      imports: [OutboxWithoutRelayModule.forRoot(), ListCacheModule],
      providers,
    });
    const prisma = context.get(PrismaClient);
    return {
      prisma,
      get: (type) => context.get(type),
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
