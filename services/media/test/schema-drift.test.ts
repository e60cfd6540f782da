import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { serviceMigrationDrift } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');

describe('media migrations', () => {
  it('build exactly the tables prisma/schema.prisma describes', async () => {
    expect(await serviceMigrationDrift(serviceDir)).toBe('');
  });
});
