import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { migrationDrift } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');

describe('notifier migrations', () => {
  it('build exactly the tables prisma/schema.prisma describes', async () => {
    expect(await migrationDrift({ migrationsDir: join(serviceDir, 'prisma', 'migrations'), prismaSchemaPath: join(serviceDir, 'prisma', 'schema.prisma') })).toBe('');
  });
});
