import { migrationScriptsOf } from '../migration-scripts.js';

/** The outbox table every producing service keeps in its own schema (contract §1, §7). */
export const OUTBOX_TABLE = 'outbox_events';

/** NOTIFY channel of one schema's outbox; the insert trigger raises it, delivered at commit. */
export function outboxChannel(schema: string): string {
  return `outbox:${schema}`;
}

/**
 * The outbox's Prisma migrations folder (`libs/messaging/prisma/outbox-migrations`). A producing
 * service applies it with its own: `startService({ migrations: [own, OUTBOX_MIGRATIONS] })`. The
 * table matches the `OutboxEvent` model of `libs/messaging/prisma/outbox.prisma`; the NOTIFY trigger
 * function is not modelled by Prisma (the drift check ignores it).
 */
export const OUTBOX_MIGRATIONS = new URL('../../prisma/outbox-migrations/', import.meta.url);

/** The outbox's migration scripts in order, for tests and benchmarks that build a bare outbox. */
export function outboxMigrationScripts(): string[] {
  return migrationScriptsOf(OUTBOX_MIGRATIONS);
}
