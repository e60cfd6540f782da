import { join } from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { type MediumWorld, mediumWorld } from '@school/service/testing';
import { migratedTestSchema } from '@school/testing';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export type IdentityMedium = MediumWorld<PrismaClient>;

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without a
 * controller); `config`: what `APP_CONFIG` holds for them. Unlike the socket suites' apps, which
 * share identity's fixed schema name and so copy a database each, a medium suite's client and
 * repositories take the schema from the context, so its own schema in the shared database will do.
 */
export async function identityMedium(prefix: string, providers: NonNullable<ModuleMetadata['providers']>, config: object = {}): Promise<IdentityMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  return mediumWorld(db, { Prisma: PrismaClient, config, providers });
}
