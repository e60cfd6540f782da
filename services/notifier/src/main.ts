import './instrument.js';
import { startEventService } from '@school/messaging/nest';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { notifierEnv } from './config.js';

await startEventService({ name: 'notifier', env: notifierEnv, app: AppModule, migrations: MIGRATIONS });
