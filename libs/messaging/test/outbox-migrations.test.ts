import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_MIGRATION_SQL } from '@school/messaging';

const services = join(import.meta.dirname, '..', '..', '..', 'services');

describe('the producing services create the outbox this library expects', () => {
  it.each(['identity', 'feedback'])('%s: its outbox migration is exactly OUTBOX_MIGRATION_SQL', async (service) => {
    const script = await readFile(join(services, service, 'prisma', 'migrations', '20261122010000_outbox', 'migration.sql'), 'utf8');
    expect(script).toBe(OUTBOX_MIGRATION_SQL);
  });
});
