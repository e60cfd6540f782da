import './instrument.js';
import { startEventService } from '@school/messaging/nest';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { feedbackConfigRules, feedbackEnv } from './config.js';

await startEventService({ name: 'feedback', env: feedbackEnv, rules: feedbackConfigRules, app: AppModule, migrations: MIGRATIONS });
