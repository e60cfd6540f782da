import { migrateService } from '@school/service/migrate';
import { MIGRATIONS } from './migrations.js';

await migrateService('feedback', MIGRATIONS);
