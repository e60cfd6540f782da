import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_MIGRATIONS } from '@school/messaging';

const services = join(import.meta.dirname, '..', '..', '..', 'services');
const cases = ['identity', 'feedback'].flatMap((service) => OUTBOX_MIGRATIONS.map((migration) => [service, migration.name, migration.sql] as const));

describe('the producing services create the outbox this library expects', () => {
  it.each(cases)('%s: its %s migration is exactly the library\'s', async (service, name, sql) => {
    const script = await readFile(join(services, service, 'prisma', 'migrations', name, 'migration.sql'), 'utf8');
    expect(script).toBe(sql);
  });
});
