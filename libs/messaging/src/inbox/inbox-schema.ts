import { migrationScriptsOf } from '../migration-scripts.js';

/** The inbox table every consuming service keeps in its own schema (contract §7). */
export const INBOX_TABLE = 'processed_messages';

/**
 * The inbox's Prisma migrations folder (`libs/messaging/prisma/inbox-migrations`). A consuming
 * service applies it with its own: `[own, INBOX_MIGRATIONS]`. The table matches the
 * `ProcessedMessage` model of `libs/messaging/prisma/inbox.prisma`.
 */
export const INBOX_MIGRATIONS = new URL('../../prisma/inbox-migrations/', import.meta.url);

/** A message id is remembered this long; a redelivery comes within minutes, not weeks. */
export const INBOX_RETENTION_DAYS = 30;

/** The inbox's migration scripts in order, for tests that build a bare inbox. */
export function inboxMigrationScripts(): string[] {
  return migrationScriptsOf(INBOX_MIGRATIONS);
}
