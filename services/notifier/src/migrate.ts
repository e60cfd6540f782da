import { migrateService } from '@school/service';
import { MIGRATIONS } from './migrations.js';

await migrateService('notifier', MIGRATIONS);
