import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { parseConfig } from '@school/config';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { OutboxWithoutRelayModule } from '@school/messaging/testing';
import { mediumWorld, type MediumWorld } from '@school/service/testing';
import { referenceDataEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { ListCacheModule } from '../../src/list-cache/list-cache.module.js';

const serviceDir = join(import.meta.dirname, '..', '..');

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export type ReferenceDataMedium = MediumWorld<PrismaClient>;

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without the
 * controller). Also provided, as the app provides them: the outbox and the audit recorder of the
 * schema, and the list caches on Redis under a key prefix of the suite's own.
 */
export function referenceDataMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<ReferenceDataMedium> {
  return mediumWorld<PrismaClient>({
    serviceDir,
    sharedMigrations: [INBOX_MIGRATIONS, OUTBOX_MIGRATIONS],
    prefix,
    Prisma: PrismaClient,
    config: (databaseUrl) =>
      parseConfig(referenceDataEnv, { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, CACHE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:` }),
    imports: [OutboxWithoutRelayModule.forRoot(), ListCacheModule],
    providers,
  });
}
