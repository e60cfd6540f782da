import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import type { ServiceMigrations } from '@school/service';

/** Applied at start-up (`startService`) and by `dist/migrate.js` (the migration job). */
export const MIGRATIONS: ServiceMigrations = [new URL('../prisma/migrations', import.meta.url), OUTBOX_MIGRATIONS, INBOX_MIGRATIONS];
