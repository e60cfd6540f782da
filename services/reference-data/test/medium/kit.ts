import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { parseConfig } from '@school/config';
import { AuditRecorder, INBOX_MIGRATIONS, Outbox, OUTBOX_MIGRATIONS } from '@school/messaging';
import { DatabaseSchema } from '@school/service';
import { type MediumWorld, mediumWorld } from '@school/service/testing';
import { migratedTestSchema } from '@school/testing';
import { referenceDataEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { ListCacheModule } from '../../src/list-cache/list-cache.module.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export type ReferenceDataMedium = MediumWorld<PrismaClient>;

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without the
 * controller). Also provided, as the app provides them: the outbox and the audit recorder of the
 * schema, and the list caches on Redis under a key prefix of the suite's own.
 */
export async function referenceDataMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>): Promise<ReferenceDataMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [INBOX_MIGRATIONS, OUTBOX_MIGRATIONS]);
  const config = parseConfig(referenceDataEnv, {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: db.databaseUrl,
    CACHE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
  });
  return mediumWorld(db, {
    Prisma: PrismaClient,
    config,
    imports: [ListCacheModule],
    providers: [
      { provide: Outbox, useFactory: (schema: DatabaseSchema) => new Outbox(schema.name), inject: [DatabaseSchema] },
      { provide: AuditRecorder, useFactory: (outbox: Outbox) => new AuditRecorder(outbox), inject: [Outbox] },
      ...providers,
    ],
  });
}
