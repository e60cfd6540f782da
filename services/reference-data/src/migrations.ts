import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging/migrations';
import type { ServiceMigrations } from '@school/service/migrate';

/** Applied at start-up (`startService`) and by `dist/migrate.js` (the migration job). */
export const MIGRATIONS: ServiceMigrations = [new URL('../prisma/migrations', import.meta.url), INBOX_MIGRATIONS, OUTBOX_MIGRATIONS];
