import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migratedTestSchema, schemaDrift, type MigratedTestSchema } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');

describe('notifier migrations', () => {
  let db: MigratedTestSchema;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_drift');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('build exactly the tables prisma/schema.prisma describes', async () => {
    const prismaSchemaPath = join(serviceDir, 'prisma', 'schema.prisma');
    expect(await schemaDrift({ databaseUrl: db.databaseUrl, schema: db.schema, prismaSchemaPath })).toEqual([]);
  });
});
